import fc from 'fast-check';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  newSigningSecret,
  signatureHeader,
  SIGNING_SECRET_PREFIX,
  WEBHOOK_USER_AGENT,
  webhookHeaders,
} from '../../shared/webhooks/signature';

// standardwebhooks (not ours) is the judge throughout: a receiver following the scheme must accept what we send.
const nowSeconds = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({ id: 'evt_01JD8ZQ5', type: 'recording.created', data: { recording_id: 'rec_1', title: 'Déjà vu 🎙️' } });

describe('newSigningSecret', () => {
  it('is whsec_ followed by the base64 of 32 bytes, and differs every time', () => {
    const secrets = Array.from({ length: 20 }, () => newSigningSecret());
    for (const secret of secrets) {
      expect(secret.startsWith(SIGNING_SECRET_PREFIX)).toBe(true);
      const encoded = secret.slice(SIGNING_SECRET_PREFIX.length);
      expect(encoded).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(encoded, 'base64')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('is accepted by standardwebhooks as a secret', () => {
    expect(() => new Webhook(newSigningSecret())).not.toThrow();
  });
});

describe('webhookHeaders, verified by the standardwebhooks package', () => {
  it('carries the content type, the three scheme headers and our User-Agent', () => {
    const secret = newSigningSecret();
    const timestampSeconds = nowSeconds();
    const headers = webhookHeaders({ messageId: 'evt_1', timestampSeconds, body, secrets: [secret] });
    expect(headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
      'user-agent': WEBHOOK_USER_AGENT,
    });
  });

  it('verifies and returns the parsed payload', () => {
    const secret = newSigningSecret();
    const headers = webhookHeaders({ messageId: 'evt_1', timestampSeconds: nowSeconds(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('signs exactly what the scheme signs ("id.timestamp.body"), as the reference signer does', () => {
    const secret = newSigningSecret();
    const timestampSeconds = 1_700_000_000;
    expect(signatureHeader([secret], 'evt_1', timestampSeconds, body)).toBe(
      new Webhook(secret).sign('evt_1', new Date(timestampSeconds * 1000), body),
    );
  });

  it('during a rotation, carries both signatures (new first) and verifies with either secret alone', () => {
    const newSecret = newSigningSecret();
    const oldSecret = newSigningSecret();
    const headers = webhookHeaders({ messageId: 'evt_2', timestampSeconds: nowSeconds(), body, secrets: [newSecret, oldSecret] });
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).toBe(signatureHeader([newSecret], 'evt_2', Number(headers['webhook-timestamp']), body));
    expect(signatures[1]).toBe(signatureHeader([oldSecret], 'evt_2', Number(headers['webhook-timestamp']), body));
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('fails for a tampered body', () => {
    const secret = newSigningSecret();
    const headers = webhookHeaders({ messageId: 'evt_1', timestampSeconds: nowSeconds(), body, secrets: [secret] });
    const tampered = body.replace('rec_1', 'rec_2');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(WebhookVerificationError);
  });

  it('fails for another message id (a signature cannot be replayed under another event)', () => {
    const secret = newSigningSecret();
    const headers = webhookHeaders({ messageId: 'evt_1', timestampSeconds: nowSeconds(), body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_9' })).toThrow('No matching signature found');
  });

  it('fails for another secret', () => {
    const headers = webhookHeaders({ messageId: 'evt_1', timestampSeconds: nowSeconds(), body, secrets: [newSigningSecret()] });
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow('No matching signature found');
  });

  it('fails for a stale timestamp (older than the receiver tolerance of 5 minutes)', () => {
    const secret = newSigningSecret();
    const headers = webhookHeaders({ messageId: 'evt_1', timestampSeconds: nowSeconds() - 10 * 60, body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('Message timestamp too old');
  });

  it('round-trips arbitrary bodies and ids (any Unicode) through standardwebhooks verification', () => {
    const secrets = [newSigningSecret(), newSigningSecret()];
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }),
        fc.string({ unit: 'grapheme', maxLength: 2000 }),
        fc.integer({ min: 0, max: 1 }),
        (messageId, anyBody, which) => {
          const headers = webhookHeaders({ messageId, timestampSeconds: nowSeconds(), body: anyBody, secrets });
          // jsonParse off: the property is about the signature, and arbitrary text is not JSON.
          expect(() => new Webhook(secrets[which]).verify(anyBody, headers, { jsonParse: false })).not.toThrow();
          expect(() => new Webhook(newSigningSecret()).verify(anyBody, headers, { jsonParse: false })).toThrow(WebhookVerificationError);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('signatureHeader, misuse', () => {
  it('refuses an empty list of secrets, a secret without the prefix or key, and a fractional timestamp', () => {
    expect(() => signatureHeader([], 'evt_1', 1, body)).toThrow('At least one signing secret');
    expect(() => signatureHeader(['c2VjcmV0'], 'evt_1', 1, body)).toThrow('must start with whsec_');
    expect(() => signatureHeader(['whsec_'], 'evt_1', 1, body)).toThrow('base64 key');
    expect(() => signatureHeader([newSigningSecret()], 'evt_1', 1.5, body)).toThrow('whole seconds');
  });

  it('never puts the secret in its error messages', () => {
    const notASecret = 'sk_live_shouldnotleak';
    expect(() => signatureHeader([notASecret], 'evt_1', 1, body)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(notASecret) }),
    );
  });
});
