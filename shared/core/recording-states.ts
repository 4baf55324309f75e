/** Recording states: the service sets the first two; the processing pipeline the rest. */
export const RECORDING_STATES = ['pending_upload', 'uploaded', 'processing', 'ready', 'failed'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];
