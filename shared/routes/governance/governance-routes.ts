import { defineRouteArea } from '../route-definition';
import { getRedactionDocs, getRedactionRoute } from './get-redaction';
import { getRetentionDocs, getRetentionRoute } from './get-retention';
import { getVocabularyDocs, getVocabularyRoute } from './get-vocabulary';
import { placeMemberLegalHoldDocs, placeMemberLegalHoldRoute } from './place-member-legal-hold';
import { releaseMemberLegalHoldDocs, releaseMemberLegalHoldRoute } from './release-member-legal-hold';
import { updateRedactionDocs, updateRedactionRoute } from './update-redaction';
import { updateRetentionDocs, updateRetentionRoute } from './update-retention';
import { updateVocabularyDocs, updateVocabularyRoute } from './update-vocabulary';

/**
 * The organization's retention policy, its members' legal holds (docs/governance.md), and its
 * transcripts' vocabulary and redaction (docs/transcript-controls.md).
 */
export const GOVERNANCE_ROUTES = defineRouteArea({
  area: 'governance',
  // Deployed with the users' routes: /users/{userId} has one nested stack.
  stack: 'users',
  routes: [
    { route: getRetentionRoute, docs: getRetentionDocs },
    { route: updateRetentionRoute, docs: updateRetentionDocs },
    { route: placeMemberLegalHoldRoute, docs: placeMemberLegalHoldDocs },
    { route: releaseMemberLegalHoldRoute, docs: releaseMemberLegalHoldDocs },
    { route: getVocabularyRoute, docs: getVocabularyDocs },
    { route: updateVocabularyRoute, docs: updateVocabularyDocs },
    { route: getRedactionRoute, docs: getRedactionDocs },
    { route: updateRedactionRoute, docs: updateRedactionDocs },
  ],
});
