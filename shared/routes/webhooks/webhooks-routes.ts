import { createWebhookDocs, createWebhookRoute } from './create-webhook';
import { deleteWebhookDocs, deleteWebhookRoute } from './delete-webhook';
import { getWebhookDocs, getWebhookRoute } from './get-webhook';
import { listWebhookDeliveriesDocs, listWebhookDeliveriesRoute } from './list-webhook-deliveries';
import { listWebhooksDocs, listWebhooksRoute } from './list-webhooks';
import { retryWebhookDeliveryDocs, retryWebhookDeliveryRoute } from './retry-webhook-delivery';
import { rotateWebhookSecretDocs, rotateWebhookSecretRoute } from './rotate-webhook-secret';
import { testWebhookDocs, testWebhookRoute } from './test-webhook';
import { updateWebhookDocs, updateWebhookRoute } from './update-webhook';
import { defineRouteArea } from '../route-definition';

/** Webhook endpoints and their deliveries. */
export const WEBHOOKS_ROUTES = defineRouteArea({
  area: 'webhooks',
  stack: 'webhooks',
  routes: [
    { route: listWebhooksRoute, docs: listWebhooksDocs },
    { route: createWebhookRoute, docs: createWebhookDocs },
    { route: getWebhookRoute, docs: getWebhookDocs },
    { route: updateWebhookRoute, docs: updateWebhookDocs },
    { route: deleteWebhookRoute, docs: deleteWebhookDocs },
    { route: rotateWebhookSecretRoute, docs: rotateWebhookSecretDocs },
    { route: testWebhookRoute, docs: testWebhookDocs },
    { route: listWebhookDeliveriesRoute, docs: listWebhookDeliveriesDocs },
    { route: retryWebhookDeliveryRoute, docs: retryWebhookDeliveryDocs },
  ],
});
