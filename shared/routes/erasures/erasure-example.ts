import type { Erasure } from '../../schemas/erasures';

/** A completed erasure, as the docs show it. */
export const erasureExample: Erasure = {
  id: 'era_4f1c2b9e8d7a6c5b4a39',
  user_id: 'usr_demo_viewer',
  status: 'completed',
  step: null,
  counts: {
    recordings: 12,
    exports: 1,
    action_items_rewritten: 3,
    speakers_renamed: 1,
    settings_items: 5,
    tags: 2,
    api_keys: 1,
    invites: 1,
    webhook_deliveries_redacted: 2,
    memberships: 1,
    user_items: 3,
  },
  requested_by: { kind: 'user', id: 'usr_demo_owner' },
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:41.000Z',
  completed_at: '2026-11-20T10:00:41.000Z',
};
