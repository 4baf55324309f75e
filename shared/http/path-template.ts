/**
 * API Gateway path templates, such as /api/v1/organization/{orgId}/users: the one place that
 * knows their syntax and how API Gateway matches a request path against them. The local API
 * emulator routes with it, the contract check finds a response's operation with it, and the
 * sample events build their paths with it.
 *
 * The rules are API Gateway's for REST API resources: a template is literal segments and
 * whole-segment {parameters}; a parameter matches exactly one non-empty segment; literal
 * segments compare case-sensitively; and when several templates match a path, the one whose
 * first differing segment is literal wins (/recordings/upload-url over /recordings/{id}).
 */
type Segment = { kind: 'literal'; text: string } | { kind: 'parameter'; name: string };

/** A compiled path template. */
export interface PathTemplate {
  readonly template: string;
  /** The parameter names, in path order. */
  readonly parameterNames: readonly string[];
  /**
   * The path parameters when `pathname` matches, else undefined. Values are the path's
   * segments as sent, still percent-encoded: whether and how to decode them is the caller's.
   */
  match(pathname: string): Record<string, string> | undefined;
  /** The path with each parameter's value, percent-encoded, in its segment; throws when a value is missing. */
  expand(values: Readonly<Record<string, string>>): string;
}

/** What a set of templates finds for a path: the template that matched and its path parameters. */
export interface PathMatch {
  template: string;
  params: Record<string, string>;
}

const PARAMETER = /^\{(\w+)\}$/;

/** Compiles a template; throws on what API Gateway would not accept as a resource path (or on greedy {name+} parameters, which this API does not use). */
export function compilePathTemplate(template: string): PathTemplate {
  return compileSegments(template, parseTemplate(template));
}

function compileSegments(template: string, segments: readonly Segment[]): PathTemplate {
  const parameterNames = segments.flatMap((segment) => (segment.kind === 'parameter' ? [segment.name] : []));
  return {
    template,
    parameterNames,
    match(pathname) {
      const parts = splitPath(pathname);
      if (!parts || parts.length !== segments.length) return undefined;
      const params: Record<string, string> = {};
      for (const [i, segment] of segments.entries()) {
        const part = parts[i];
        if (segment.kind === 'literal') {
          if (part !== segment.text) return undefined;
        } else {
          if (part === '') return undefined;
          params[segment.name] = part;
        }
      }
      return params;
    },
    expand(values) {
      const parts = segments.map((segment) => {
        if (segment.kind === 'literal') return segment.text;
        const value = values[segment.name];
        if (value === undefined || value === '') throw new Error(`No value for the path parameter ${segment.name} of ${template}`);
        return encodeURIComponent(value);
      });
      return `/${parts.join('/')}`;
    },
  };
}

/**
 * Matches paths against a set of templates as API Gateway selects a resource: of the templates
 * a path matches, the most specific (literal segments before parameters, left to right).
 */
export function createPathMatcher(templates: Iterable<string>): (pathname: string) => PathMatch | undefined {
  const candidates = [...new Set(templates)]
    .map((template) => ({ template, segments: parseTemplate(template) }))
    .sort((a, b) => compareSpecificity(a.segments, b.segments))
    .map(({ template, segments }) => compileSegments(template, segments));
  return (pathname) => {
    for (const candidate of candidates) {
      const params = candidate.match(pathname);
      if (params) return { template: candidate.template, params };
    }
    return undefined;
  };
}

/** Negative when `a` is the more specific: at the first segment where one is literal and the other a parameter, the literal one. */
function compareSpecificity(a: readonly Segment[], b: readonly Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i].kind !== b[i].kind) return a[i].kind === 'literal' ? -1 : 1;
  }
  // Templates of different lengths never match the same path; any stable order will do.
  return a.length - b.length;
}

function parseTemplate(template: string): Segment[] {
  const parts = splitPath(template);
  if (!parts) throw new Error(`Path template ${JSON.stringify(template)} must start with /`);
  const names = new Set<string>();
  return parts.map((part): Segment => {
    const parameter = PARAMETER.exec(part);
    if (parameter) {
      const name = parameter[1];
      if (names.has(name)) throw new Error(`Path template ${template} names the parameter ${name} twice`);
      names.add(name);
      return { kind: 'parameter', name };
    }
    if (part === '' || /[{}]/.test(part))
      throw new Error(`Path template ${template} has a segment API Gateway does not accept: ${JSON.stringify(part)}`);
    return { kind: 'literal', text: part };
  });
}

/** The segments of an absolute path ('/' has none); undefined for a path that does not start with '/'. */
function splitPath(path: string): string[] | undefined {
  if (!path.startsWith('/')) return undefined;
  return path === '/' ? [] : path.slice(1).split('/');
}
