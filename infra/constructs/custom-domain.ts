import { CfnOutput, type Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';

/** A custom domain for the API (context domainName, certificateArn, basePath; docs/deploy.md). */
export interface CustomDomainSettings {
  /** The DNS name clients call, such as api.example.com. */
  domainName: string;
  /** An ACM certificate for domainName, issued in the stack's region (a regional endpoint). */
  certificateArn: string;
  /** The path the API is mapped at on the domain (`v1` serves https://api.example.com/v1/…); none maps the root. */
  basePath?: string;
}

/**
 * Serves the API's stage on a custom domain: a regional API Gateway domain name with TLS 1.2
 * and a base path mapping. DNS stays with the operator: the outputs name the target of the
 * CNAME (or Route 53 alias) record to create, so the stack needs no hosted zone.
 */
export function addCustomDomain(stack: Stack, api: apigateway.RestApi, settings: CustomDomainSettings): apigateway.DomainName {
  const domain = new apigateway.DomainName(stack, 'CustomDomain', {
    domainName: settings.domainName,
    certificate: acm.Certificate.fromCertificateArn(stack, 'CustomDomainCertificate', settings.certificateArn),
    endpointType: apigateway.EndpointType.REGIONAL,
    securityPolicy: apigateway.SecurityPolicy.TLS_1_2,
  });
  domain.addBasePathMapping(api, { basePath: settings.basePath, stage: api.deploymentStage });
  new CfnOutput(stack, 'CustomDomainUrl', { value: `https://${settings.domainName}/${settings.basePath ? `${settings.basePath}/` : ''}` });
  new CfnOutput(stack, 'CustomDomainTarget', {
    value: domain.domainNameAliasDomainName,
    description: 'Point a CNAME (or a Route 53 alias record) for the custom domain at this name.',
  });
  new CfnOutput(stack, 'CustomDomainHostedZoneId', {
    value: domain.domainNameAliasHostedZoneId,
    description: 'The hosted zone id of a Route 53 alias record to CustomDomainTarget.',
  });
  return domain;
}
