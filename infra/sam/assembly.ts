import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A Lambda function of a synthesized stack whose code is a bundle built from a handler module. */
export interface BundledFunction {
  /** CloudFormation logical id, e.g. UsersListUsersFunction286AEB2D (what `sam local invoke` takes). */
  logicalId: string;
  /** Construct path from the aws:cdk:path metadata, e.g. VoiceOrgApi-prod/UsersRoutes/UsersListUsersFunction. */
  constructPath: string;
  /**
   * The template that declares it: the stack's own (`<stack>.template.json`) or a route stack's
   * (`<…>.nested.template.json`), and, for a route stack, its construct id (UsersRoutes).
   */
  templateFile: string;
  nestedStack?: string;
  /**
   * What `sam local invoke` takes, given the stack's template (-t cdk.out/<stack>.template.json):
   * the logical id in the root stack (AuthorizerFunctionB4DBAA43), <nested stack>/<function> in
   * a route stack (UsersRoutes/UsersListUsersFunction, the form AWS documents for CDK nested stacks).
   */
  samFunctionId: string;
  /** The handler module the bundle was built from (from its source map), e.g. functions/users/list-users. */
  handlerModule: string;
  /** The asset directory in the cloud assembly, and the bundle file in it (index.mjs, an ES module; index.js for a CommonJS build). */
  assetDir: string;
  bundleFile: string;
  bundleBytes: number;
  /** `index.handler` for a NodejsFunction. */
  handler: string;
  /**
   * The function's environment as the root stack gives it (values may be CloudFormation
   * intrinsics): a route stack's parameters are replaced by the root stack's values for them.
   */
  environment: Record<string, unknown>;
}

/** A resource of a synthesized template, as far as this module reads it. */
interface TemplateResource {
  Type: string;
  Properties?: {
    TemplateURL?: unknown;
    Parameters?: Record<string, unknown>;
    Code?: { S3Key?: unknown };
    Handler?: string;
    Environment?: { Variables?: Record<string, unknown> };
  };
  Metadata?: Record<string, unknown>;
}

/** A synthesized CloudFormation template (the rest of it is read by the tests, untyped). */
export interface Template extends Record<string, unknown> {
  Resources: Record<string, TemplateResource>;
}

/** A stack's asset manifest: its file assets by hash, each staged at source.path. */
interface AssetManifest {
  files?: Record<string, { source: { path: string } }>;
}

/** A template of a synthesized stack: the root's, or a nested stack's with the values its parent gives its parameters. */
export interface AssemblyTemplate {
  /** The file in the assembly directory (`<stack>.template.json`, `<…>.nested.template.json`). */
  file: string;
  template: Template;
  /** A nested stack's construct id (UsersRoutes), undefined for the root. */
  nestedStack?: string;
  parameters: Record<string, unknown>;
  /** The directory of a file asset the template names by its S3 key (<hash>.zip): a function's code. */
  assetDirOf: (s3Key: string, what: string) => string;
}

/**
 * Every template of a stack in a cloud assembly directory (cdk.out or an App's outdir): the
 * root's, then each nested stack's, found as CloudFormation does, through each
 * AWS::CloudFormation::Stack's TemplateURL, whose asset the root stack's asset manifest holds
 * (nested stacks' assets, their templates included, are the root stack's).
 */
export function assemblyTemplates(outdir: string, stackName: string): AssemblyTemplate[] {
  const assets = JSON.parse(readFileSync(path.join(outdir, `${stackName}.assets.json`), 'utf8')) as AssetManifest;
  const assetOf = (key: string, what: string) => {
    const asset = assets.files?.[key.replace(/\.(zip|json)$/, '')];
    if (!asset) throw new Error(`${what}: no asset in ${stackName}.assets.json for ${key}`);
    return asset;
  };
  // Relative to the assembly once staged (asset.<hash>); an asset left unbuilt (no bundling) names its source.
  const assetDirOf = (s3Key: string, what: string) => path.resolve(outdir, assetOf(s3Key, what).source.path);
  const templates: AssemblyTemplate[] = [];
  const read = (file: string, parameters: Record<string, unknown>, nestedStack?: string) => {
    const template = JSON.parse(readFileSync(path.join(outdir, file), 'utf8')) as Template;
    templates.push({ file, template, nestedStack, parameters, assetDirOf });
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
      // TemplateURL ends with /<hash>.json, the nested template's asset.
      const key = /\/([0-9a-f]{64}\.json)"/.exec(JSON.stringify(resource.Properties?.TemplateURL))?.[1];
      if (!key) throw new Error(`${logicalId}: no template asset in its TemplateURL`);
      const constructId =
        cdkPathOf(resource)
          .split('/')
          .at(-2)
          ?.replace(/\.NestedStack$/, '') || logicalId;
      read(assetOf(key, logicalId).source.path, resource.Properties?.Parameters ?? {}, constructId);
    }
  };
  read(`${stackName}.template.json`, {});
  return templates;
}

/**
 * The bundled functions of a stack in a cloud assembly directory (cdk.out or an App's
 * outdir), those of its nested route stacks included (assemblyTemplates): each function's
 * Code.S3Key names its asset (<hash>.zip), and the bundle's source map names the one handler
 * module under functions/ it was built from. Functions CDK adds itself (inline code, or code
 * that is not built from functions/) are left out. Needs no asset metadata, so it reads an
 * App's outdir as well as the CLI's cdk.out.
 */
export function bundledFunctions(outdir: string, stackName: string): BundledFunction[] {
  const functions: BundledFunction[] = [];
  for (const { file: templateFile, template, nestedStack, parameters, assetDirOf } of assemblyTemplates(outdir, stackName)) {
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const s3Key: unknown = resource.Properties?.Code?.S3Key;
      if (typeof s3Key !== 'string') continue; // inline code
      const assetDir = assetDirOf(s3Key, logicalId);
      // index.mjs for an ES module bundle (what the stack builds), index.js for a CommonJS one: the runtime (and sam local) finds either.
      const bundleFile = ['index.mjs', 'index.js'].map((name) => path.join(assetDir, name)).find((file) => existsSync(file));
      if (!bundleFile) throw new Error(`${logicalId}: no index.mjs or index.js in ${assetDir} (was the app synthesized without bundling?)`);
      const handlerModule = handlerModuleOf(bundleFile);
      if (!handlerModule) continue; // a function CDK adds with code of its own
      const constructPath = cdkPathOf(resource).replace(/\/Resource$/, '');
      const environment = resource.Properties?.Environment?.Variables ?? {};
      functions.push({
        logicalId,
        constructPath,
        templateFile,
        nestedStack,
        samFunctionId: nestedStack ? `${nestedStack}/${constructPath.split('/').at(-1) || logicalId}` : logicalId,
        handlerModule,
        assetDir,
        bundleFile,
        bundleBytes: statSync(bundleFile).size,
        handler: resource.Properties?.Handler ?? '',
        environment: Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, parameterValue(value, parameters)])),
      });
    }
  }
  return functions;
}

/** The construct path CDK records on a resource (empty when it records none). */
function cdkPathOf(resource: TemplateResource): string {
  const cdkPath = resource.Metadata?.['aws:cdk:path'];
  return typeof cdkPath === 'string' ? cdkPath : '';
}

/** A value as the parent stack gives it: a nested stack's {Ref: <parameter>} becomes the parent's value for it. */
function parameterValue(value: unknown, parameters: Record<string, unknown>): unknown {
  const ref = (value as { Ref?: unknown } | null)?.Ref;
  return typeof ref === 'string' && ref in parameters ? parameters[ref] : value;
}

/** The repo files a bundle was built from, as its source map lists them (node_modules excluded). */
export function bundleSources(bundleFile: string): { own: string[]; packages: string[] } {
  const map = JSON.parse(readFileSync(`${bundleFile}.map`, 'utf8')) as { sources: string[] };
  const own: string[] = [];
  const packages = new Set<string>();
  for (const source of map.sources) {
    const inModules = source.lastIndexOf('node_modules/');
    if (inModules >= 0) {
      const [scope, name] = source.slice(inModules + 'node_modules/'.length).split('/');
      packages.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
    } else {
      // Sources are relative to the bundling directory; keep the path from the repo's top folders.
      const match = /(?:^|\/)((?:functions|shared|infra)\/.+)$/.exec(source);
      if (match) own.push(match[1]);
    }
  }
  return { own, packages: [...packages].sort() };
}

/** The handler module under functions/ a bundle was built from; undefined for code that is not this repo's. */
function handlerModuleOf(bundleFile: string): string | undefined {
  if (!existsSync(`${bundleFile}.map`)) throw new Error(`${bundleFile}: no source map (the stack bundles with sourceMap: true)`);
  const modules = bundleSources(bundleFile)
    .own.filter((file) => file.startsWith('functions/'))
    .map((file) => file.replace(/\.ts$/, ''));
  if (modules.length > 1) throw new Error(`${bundleFile}: built from several handler modules: ${modules.join(', ')}`);
  return modules[0];
}
