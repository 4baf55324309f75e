import { createHash } from 'node:crypto';
import { App } from 'aws-cdk-lib';
import { VoiceOrgStack } from '../../infra/stack';
import { SYNTH_ENVIRONMENTS, propsIn } from './environments';
import { templatesOf, type Json } from './template';

/**
 * Every template of the stack, resource by resource, against the snapshot beside this file: a
 * change of code that moves or renames a handler, a consumer or a construct must leave every
 * logical id and every property as deployed stacks have them, asset hashes aside (they follow
 * the bundles' bytes). A deliberate change of the stack updates the snapshot
 * (`npx jest test/infra/template-identity.test.ts -u`), and its diff shows what a deploy changes.
 */

const ASSET_HASH = /[0-9a-f]{64}/g;
/** The RestApi deployment's logical id ends with a hash of what it serves, the functions' code included (so new code redeploys the stage). */
const DEPLOYMENT_ID = /(ApiDeployment[0-9A-F]{8})[0-9a-f]{32}/g;

/** Text of a template with what follows the bundles' bytes set aside. */
const withoutAssetHashes = (text: string) => text.replace(ASSET_HASH, '<asset>').replace(DEPLOYMENT_ID, '$1<assets>');

/** A short digest of a template section's value, asset hashes set aside. */
function digestOf(value: Json): string {
  return createHash('sha256')
    .update(withoutAssetHashes(JSON.stringify(value)))
    .digest('hex')
    .slice(0, 16);
}

/** A template as `logical id → type and digest`, plus a digest of each other section. */
function identityOf(template: Json): Record<string, string> {
  const identity: Record<string, string> = {};
  for (const section of ['Parameters', 'Mappings', 'Conditions', 'Outputs', 'Rules']) {
    if (template[section]) identity[`(${section})`] = digestOf(template[section]);
  }
  for (const [logicalId, resource] of Object.entries<Json>(template.Resources)) {
    identity[withoutAssetHashes(logicalId)] = `${resource.Type} ${digestOf(resource)}`;
  }
  return identity;
}

// The environment-agnostic stack and one the CLI resolves: ARNs and acknowledgements differ between them.
const ENVIRONMENTS = SYNTH_ENVIRONMENTS.filter(({ name }) => name === 'environment-agnostic' || name === 'eu-west-1');

describe.each(ENVIRONMENTS.map((environment) => [environment.name, environment] as const))('the templates (%s)', (_name, environment) => {
  it('keep every logical id and property, asset hashes aside', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const { root, nested } = templatesOf(new VoiceOrgStack(app, 'IdentityStack', { stage: 'test', ...propsIn(environment) }));
    const templates = Object.fromEntries([
      ['root', identityOf(root)],
      ...nested.map(({ area, template }) => [`${area} routes`, identityOf(template)] as const),
    ]);
    expect(templates).toMatchSnapshot();
  });
});
