import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { invocationTraceHeader, tracingSettings } from '../config';

/**
 * One X-Ray subsegment per invocation, sent straight to the X-Ray daemon that Lambda runs
 * beside a function with active tracing (the `lambda` tracing mode, docs/observability.md), so
 * that no tracing SDK is bundled. Lambda's own segment of the invocation (its trace header's
 * Parent) joins API Gateway's trace; this subsegment, under it, names the route or consumer and
 * carries the searchable annotations: `route` or `consumer`, `correlation_id`, `cold_start`,
 * `service`. Nothing else is recorded: no event, body, response or URL (responses carry key and
 * webhook secrets and profiles; a webhook URL may carry its owner's secrets).
 *
 * The document is the X-Ray segment document format for a subsegment sent on its own (`type`
 * `subsegment`, its `parent_id` and `trace_id`), preceded by the daemon's header line
 * `{"format":"json","version":1}`, in one UDP datagram to AWS_XRAY_DAEMON_ADDRESS. Only a
 * sampled invocation (`Sampled=1`) is sent; a failed send is dropped, never the request's failure.
 */

/** The daemon protocol's first line. */
export const DAEMON_HEADER = '{"format":"json","version":1}';

/** The `service` annotation of every subsegment. */
const SERVICE = 'voice-org-api';

/** What Lambda's trace header (_X_AMZN_TRACE_ID) says of the invocation. */
export interface TraceHeader {
  root: string;
  parent: string;
  sampled: boolean;
}

/** Reads `Root=1-…;Parent=…;Sampled=1[;Lineage=…]`; undefined without a root and a parent. */
export function parseTraceHeader(header: string | undefined): TraceHeader | undefined {
  if (!header) return undefined;
  const fields = new Map(header.split(';').map((part) => part.trim().split('=') as [string, string | undefined]));
  const root = fields.get('Root');
  const parent = fields.get('Parent');
  if (!root || !/^1-[0-9a-f]{8}-[0-9a-f]{24}$/.test(root) || !parent || !/^[0-9a-f]{16}$/.test(parent)) return undefined;
  return { root, parent, sampled: fields.get('Sampled') === '1' };
}

/** The daemon's UDP address: `host:port`, or `udp:host:port tcp:host:port` (the forms Lambda and the SDKs use). */
export function daemonAddressOf(text: string | undefined): { host: string; port: number } | undefined {
  if (!text) return undefined;
  const udp = text.split(/\s+/).find((part) => part.startsWith('udp:')) ?? text.split(/\s+/)[0];
  const match = /^(?:udp:)?([^\s:]+):(\d{1,5})$/.exec(udp);
  return match ? { host: match[1], port: Number(match[2]) } : undefined;
}

/** What the subsegment is named after, and the annotation that names it. */
export type TraceName = { route: string } | { consumer: string } | { function: string };

export type AnnotationValue = string | number | boolean;

/** A subsegment as the daemon receives it: the header line, then the document. */
export function subsegmentDatagram(document: {
  header: TraceHeader;
  id: string;
  name: string;
  startTime: number;
  endTime: number;
  annotations: Record<string, AnnotationValue>;
  outcome: InvocationOutcome;
}): string {
  const { header, id, name, startTime, endTime, annotations, outcome } = document;
  const status = outcome.status;
  return `${DAEMON_HEADER}\n${JSON.stringify({
    type: 'subsegment',
    id,
    trace_id: header.root,
    parent_id: header.parent,
    name: subsegmentName(name),
    start_time: startTime,
    end_time: endTime,
    ...(outcome.threw || (status !== undefined && status >= 500) ? { fault: true } : {}),
    ...(status !== undefined && status >= 400 && status < 500 ? { error: true, ...(status === 429 ? { throttle: true } : {}) } : {}),
    ...(status !== undefined ? { http: { response: { status } } } : {}),
    annotations,
  })}`;
}

/** X-Ray names: at most 200 of Unicode letters, digits, whitespace and _.:/%&#=+\-@ */
function subsegmentName(name: string): string {
  return name.replace(/[^\p{L}\p{N}\s_.:/%&#=+\\\-@]/gu, '_').slice(0, 200) || 'handler';
}

/** Annotation keys: letters, digits and underscores. Values: strings (up to 1,000 characters), numbers, booleans. */
function annotationOf(key: string, value: AnnotationValue): [string, AnnotationValue] {
  return [key.replace(/\W/g, '_'), typeof value === 'string' ? value.slice(0, 1000) : value];
}

/** How the invocation ended: an HTTP status, or a thrown error. */
export interface InvocationOutcome {
  status?: number;
  threw?: boolean;
}

interface OpenInvocation {
  header: TraceHeader;
  name: string;
  startTime: number;
  annotations: Record<string, AnnotationValue>;
  daemon: { host: string; port: number };
}

let coldStart = true;
let current: OpenInvocation | undefined;

/**
 * Opens the invocation's subsegment when this function traces (TRACING=lambda), the daemon's
 * address is known and Lambda sampled the request; otherwise nothing is kept or sent.
 */
export function startInvocationTrace(name: TraceName): void {
  const [kind, value] = Object.entries(name)[0];
  const wasCold = coldStart;
  coldStart = false;
  current = undefined;
  const settings = tracingSettings();
  if (!settings.subsegments) return;
  const header = parseTraceHeader(invocationTraceHeader());
  const daemon = daemonAddressOf(settings.daemonAddress);
  if (!header?.sampled || !daemon) return;
  current = {
    header,
    name: value,
    startTime: Date.now() / 1000,
    daemon,
    annotations: Object.fromEntries([annotationOf(kind, value), annotationOf('cold_start', wasCold), annotationOf('service', SERVICE)]),
  };
}

/** Adds a searchable annotation to the open invocation's subsegment (the correlation id); nothing when none is open. */
export function annotateInvocation(key: string, value: AnnotationValue): void {
  if (!current) return;
  const [name, annotation] = annotationOf(key, value);
  current.annotations[name] = annotation;
}

/** Closes the invocation's subsegment and sends it to the daemon; resolves once the datagram is handed over (or dropped). */
export function endInvocationTrace(outcome: InvocationOutcome): Promise<void> {
  const open = current;
  current = undefined;
  if (!open) return Promise.resolve();
  const datagram = subsegmentDatagram({ ...open, id: randomBytes(8).toString('hex'), endTime: Date.now() / 1000, outcome });
  return new Promise((resolve) => {
    // A socket per datagram, closed once sent: Lambda freezes the process between invocations, which a kept socket would not survive well.
    const socket = createSocket('udp4');
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      socket.close();
      resolve();
    };
    socket.once('error', done);
    socket.send(datagram, open.daemon.port, open.daemon.host, done);
  });
}
