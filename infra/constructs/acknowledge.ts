import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Records why a cdk-nag finding on this construct (and the constructs under it) is accepted.
 * Each builder in infra/constructs acknowledges the findings of the resources it creates, so
 * the reason sits next to the resource it explains.
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}
