/**
 * An error the local Transcribe stand-in answers in AWS JSON 1.1: the SDK reads the exception's
 * name from `__type` and its message from `message`, so callers see Transcribe's own exceptions.
 */
export class ServiceError extends Error {
  constructor(
    readonly type: 'BadRequestException' | 'ConflictException' | 'NotFoundException' | 'LimitExceededException',
    message: string,
  ) {
    super(message);
  }
}

/** Resource names Transcribe accepts for jobs and vocabularies. */
export const RESOURCE_NAME = /^[0-9a-zA-Z._-]{1,200}$/;
export const S3_URI = /^s3:\/\/([^/]+)\/(.+)$/;
