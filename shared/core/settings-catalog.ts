/**
 * The allowed values and defaults of the member settings bundle (docs/decisions.md
 * records why these). Schemas and the read path both take them from here.
 */
export const THEMES = ['system', 'light', 'dark'] as const;

/** Conversation languages, by display name (the spec's settings carry display names). */
export const CONVERSATION_LANGUAGES = [
  'Arabic',
  'Chinese (Simplified)',
  'Chinese (Traditional)',
  'Dutch',
  'English',
  'French',
  'German',
  'Hindi',
  'Indonesian',
  'Italian',
  'Japanese',
  'Korean',
  'Polish',
  'Portuguese',
  'Russian',
  'Spanish',
  'Swedish',
  'Turkish',
  'Ukrainian',
  'Vietnamese',
] as const;

/** Settings a member who never saved anything has. selected_model defaults to the fallback model. */
export const DEFAULT_SETTINGS = {
  conversation_language: 'English',
  selected_theme: 'system',
  auto_transcription: true,
  sync_to_cloud: true,
  auto_add_tasks_from_summaries: false,
  auto_route_enabled: false,
  calendar_matching: false,
  find_service_enabled: false,
  max_speakers: 10,
  monthly_transcription_minutes: 0,
} as const;

/** The speakers a transcription tells apart (Amazon Transcribe's MaxSpeakerLabels takes 2 to 30). */
export const MAX_SPEAKERS_RANGE = { min: 2, max: 30 } as const;

export const DEFAULT_NOTIFICATIONS = {
  highlight_time: '08:00',
  processing_notifications_enabled: true,
  sync_nudges_enabled: true,
  morning_welcome_notifications_enabled: true,
  reminder_notifications_enabled: true,
} as const;

/** Fields of the settings block that are shown but never written through the API. */
export const READ_ONLY_SETTINGS = ['monthly_transcription_minutes', 'created_at', 'updated_at'] as const;

export interface ModelCatalog {
  active: { id: string; aliases: string[] }[];
  fallback: string;
}

/** Case, spaces, dashes and underscores do not tell model names apart. */
const modelKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The canonical id of a requested model: an active id or alias in any case and spacing
 * maps to its id; anything else is replaced by the fallback model, not rejected.
 */
export function normalizeModel(requested: string, catalog: ModelCatalog): string {
  const key = modelKey(requested);
  const match = catalog.active.find((model) => [model.id, ...model.aliases].some((name) => modelKey(name) === key));
  return match?.id ?? catalog.fallback;
}
