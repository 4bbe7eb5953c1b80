// Errors raised before a route handler runs, in OpenAI's error shape like every other error:
// Fastify's framework errors (a bad URL escape, an over-long path parameter), its request errors
// (body too large, bad content type or length, invalid JSON), Node's client errors (malformed
// request or header lines, headers over the size limit, header/request timeouts) and an `Expect`
// header we do not support. Also the nesting limit of request bodies, checked once they are
// parsed: a deeply nested body would otherwise overflow the stack of whatever walks it next.
import type { Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OpenClawError, invalidRequest, toOpenAIError } from '../errors/index.ts';

/** An error as a status and body in the shape of the protocol served at `path` (OpenAI's when unknown). */
export type ErrorShape = (path: string | undefined, err: unknown) => { status: number; body: unknown };

const openAIShape: ErrorShape = (_path, err) => toOpenAIError(err);

/** The path of the request line ("POST /v1/messages?beta=true HTTP/1.1") at the start of raw bytes. */
function pathOfRaw(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  // The first " /…" of the first line: the method itself may be what was malformed ("G ET /v1/…").
  return /^[^\r\n]*? (\/[^ ?\r\n]*)/.exec(raw.subarray(0, 512).toString('latin1'))?.[1];
}

/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_BODY_DEPTH = 100;

/** A 4xx invalid-request error with its own status and code. */
function edgeError(status: number, message: string, code: string): OpenClawError {
  return new OpenClawError('invalid_request', message, { status, code });
}

/**
 * True when a parsed JSON value nests arrays/objects deeper than `max` (the top-level object is
 * depth 1). Iterative, and it costs one step per array/object member, not per byte: JSON.parse
 * itself copes with any depth, but everything that walks the value recursively after it
 * (JSON.stringify, zod, …) overflows the stack.
 */
export function jsonNestingExceeds(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // Two plain stacks (no tuple per node): this runs on every request body.
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const m: unknown = node[i];
        if (typeof m === 'object' && m !== null) {
          nodes.push(m);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const m: unknown = (node as Record<string, unknown>)[key];
        if (typeof m === 'object' && m !== null) {
          nodes.push(m);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** The 400 for a body nested deeper than MAX_BODY_DEPTH. */
export function tooDeepError(): OpenClawError {
  return invalidRequest(
    `The JSON body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep; this server accepts at most ${MAX_BODY_DEPTH}.`,
    null,
    'body_too_deep',
  );
}

/**
 * Maps an error thrown while Fastify read or routed a request to our error (status and wording);
 * errors of our own and unknown ones pass through (unknown ones become a 500 in toOpenAIError).
 */
export function mapRequestError(err: unknown, bodyLimitBytes: number): unknown {
  if (err instanceof OpenClawError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  const message = e.message ?? String(err);
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return edgeError(
        413,
        `Request body is larger than the server limit of ${bodyLimitBytes} bytes (server.body_limit_mb).`,
        'request_too_large',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidRequest('Content-Type must be application/json.', null, 'invalid_content_type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidRequest(`We could not parse the JSON body of your request: ${message}`, null, 'invalid_json');
    case 'FST_ERR_BAD_URL':
      return edgeError(400, `The request URL is not valid: ${message}. Percent-escapes must be '%' and two hex digits.`, 'invalid_url');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return edgeError(
        414,
        'A path parameter of the request URL is too long (a session id may have at most 256 characters).',
        'uri_too_long',
      );
  }
  if (err instanceof SyntaxError || (e.statusCode === 400 && /JSON/i.test(message))) {
    return invalidRequest(`We could not parse the JSON body of your request: ${message}`, null, 'invalid_json');
  }
  // Any other 4xx Fastify raises (bad Content-Length, unsupported encoding, …) keeps its status.
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return edgeError(e.statusCode, message, e.code !== undefined ? e.code.toLowerCase() : 'invalid_request');
  }
  return err;
}

/** Fastify's `frameworkErrors` option: bad URL escapes and over-long path parameters. */
export function frameworkErrors(bodyLimitBytes: number, shape: ErrorShape = openAIShape) {
  return (err: Error, request: FastifyRequest, reply: FastifyReply): void => {
    const { status, body } = shape(request.raw.url?.split('?')[0], mapRequestError(err, bodyLimitBytes));
    void reply.status(status).send(body);
  };
}

/** A complete HTTP/1.1 error response, written on a socket whose request Node could not parse. */
function rawErrorResponse(status: number, reason: string, err: OpenClawError, path: string | undefined, shape: ErrorShape): string {
  const json = JSON.stringify(shape(path, err).body);
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`;
}

/**
 * Node's `clientError`: a request Node could not parse, or that took too long to arrive. Answers
 * in OpenAI's shape (when the socket can still be written) and closes the connection.
 */
export function clientErrorHandler(shape: ErrorShape = openAIShape) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void => answerClientError(err, socket, shape);
}

function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket, shape: ErrorShape): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const path = pathOfRaw(err.rawPacket);
  let response: string;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    response = rawErrorResponse(
      408,
      'Request Timeout',
      edgeError(
        408,
        'The request did not arrive in time (its headers or body were sent too slowly); see docs/reliability-http.md for the timeouts.',
        'request_timeout',
      ),
      path,
      shape,
    );
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    response = rawErrorResponse(
      431,
      'Request Header Fields Too Large',
      edgeError(431, 'The request headers are larger than the server limit of 16 KB.', 'headers_too_large'),
      path,
      shape,
    );
  } else {
    // llhttp's reason (e.g. "Invalid header value char") says what was malformed.
    const reason = (err as { reason?: string }).reason ?? err.message;
    response = rawErrorResponse(
      400,
      'Bad Request',
      edgeError(400, `The HTTP request is malformed: ${reason}.`, 'malformed_request'),
      path,
      shape,
    );
  }
  if (!socket.writable) return void socket.destroy();
  socket.end(response);
  // A client that never closes its side must not hold the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Node's `checkExpectation`: any `Expect` other than 100-continue gets a 417 in the route's protocol shape. */
export function answerUnknownExpectation(shape: ErrorShape = openAIShape) {
  return (req: IncomingMessage, res: ServerResponse): void => answerExpectation(req, res, shape);
}

function answerExpectation(req: IncomingMessage, res: ServerResponse, shape: ErrorShape): void {
  const err = edgeError(
    417,
    `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported; send requests without it (or with Expect: 100-continue).`,
    'expectation_failed',
  );
  const json = JSON.stringify(shape(req.url?.split('?')[0], err).body);
  res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), connection: 'close' });
  res.end(json);
}
