import { parentPort, workerData } from 'node:worker_threads';
import { decodedAudio } from '../../infra/local/speech/ffmpeg-audio';
import { speechPieces } from '../../infra/local/speech/speech-pieces';

/** Worker entry of piecesOf (pieces-of.ts): the pieces of one file, as start, length and overlap in seconds. */
void (async () => {
  const pieces: { start: number; seconds: number; overlap: number }[] = [];
  for await (const piece of speechPieces(decodedAudio(workerData.file as string)))
    pieces.push({ start: piece.start, seconds: piece.samples.length / 16000, overlap: piece.overlap });
  parentPort!.postMessage(pieces);
})();
