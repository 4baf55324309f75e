import type { DomainEvent } from '../../schemas/event-catalog';
import type { ErasureRecord } from '../../storage/erasure-items';
import { completeErasure, failErasure, getErasure, moveErasureStep } from '../../storage/erasures';
import { isConditionFailure, WriteConflict } from '../../storage/transactions';
import { COMPLETE_STEP, ERASURE_STEPS, personOf, type ErasureJobDeps } from './erasure-steps';

export type ErasureOutcome = { kind: 'completed'; erasure: ErasureRecord } | { kind: 'ignored'; reason: string };

/**
 * The erasure job (consumer of `user.erasure_requested`): runs the erasure's steps from the one
 * it is at, each idempotent, moving the erasure to the next after each (a move conditioned on
 * the step read). A crash anywhere leaves the erasure at the step that was running, and the
 * queue's next delivery resumes there; a delivery of an erasure already completed changes
 * nothing. On the last delivery a failure marks the erasure failed before the message goes to
 * the dead-letter queue, so the member can be asked for again.
 */
export async function runMemberErasure(
  deps: ErasureJobDeps,
  event: Pick<DomainEvent, 'type' | 'org_id' | 'data'>,
  delivery: { last: boolean },
): Promise<ErasureOutcome> {
  const erasureId = event.data.erasure_id;
  if (event.type !== 'user.erasure_requested' || typeof erasureId !== 'string')
    throw new Error(`The erasure job handles user.erasure_requested only, not ${event.type}`);
  const erasure = await getErasure(deps.db, event.org_id, erasureId, { consistent: true });
  if (!erasure) return { kind: 'ignored', reason: 'no such erasure' };
  try {
    return await runErasureSteps(deps, erasure);
  } catch (error) {
    if (delivery.last) await failErasure(deps.db, erasure, error instanceof Error ? error.name : 'Error', deps.now().toISOString());
    throw error;
  }
}

/** Runs an erasure's remaining steps and completes it (also what a replay runs, on an erasure of its own). */
export async function runErasureSteps(deps: ErasureJobDeps, start: ErasureRecord): Promise<ErasureOutcome> {
  let erasure = start;
  for (;;) {
    if (erasure.status === 'completed' || erasure.status === 'failed') return { kind: 'ignored', reason: `already ${erasure.status}` };
    const step = erasure.step ?? COMPLETE_STEP;
    if (step === COMPLETE_STEP) {
      try {
        await completeErasure(deps.db, erasure, COMPLETE_STEP, deps.now().toISOString());
      } catch (error) {
        if (!(error instanceof WriteConflict && error.failedAt('erasure'))) throw error;
      }
      const done = await getErasure(deps.db, erasure.org_id, erasure.id, { consistent: true });
      if (!done) throw new Error(`Erasure ${erasure.id} vanished`);
      return done.status === 'completed' ? { kind: 'completed', erasure: done } : { kind: 'ignored', reason: `now ${done.status}` };
    }
    const at = ERASURE_STEPS.findIndex((candidate) => candidate.name === step);
    if (at < 0) throw new Error(`Erasure ${erasure.id} is at an unknown step ${step}`);
    await ERASURE_STEPS[at].run(deps, erasure, await personOf(deps.db, erasure));
    const next = ERASURE_STEPS[at + 1]?.name ?? COMPLETE_STEP;
    try {
      await moveErasureStep(deps.db, erasure, step, next, deps.now().toISOString());
    } catch (error) {
      // Another delivery moved it on meanwhile: carry on from where the erasure is now.
      if (!isConditionFailure(error)) throw error;
    }
    const moved = await getErasure(deps.db, erasure.org_id, erasure.id, { consistent: true });
    if (!moved) throw new Error(`Erasure ${erasure.id} vanished`);
    erasure = moved;
  }
}
