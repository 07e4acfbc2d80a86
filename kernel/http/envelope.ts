/**
 * The response envelope `{success, data, error}` used by every route but `/api/health`. A non-null error is
 * `{code, message, details?}` with a stable UPPER_SNAKE code from an error catalogue.
 */
import { z } from 'zod';
import { pageInfoSchema } from './paging.ts';

/** The error object of a failed call. */
export interface EnvelopeError {
  code: string;
  message: string;
  details?: unknown;
}

/** A failed envelope. */
export function errorEnvelope(error: EnvelopeError): { success: false; data: null; error: EnvelopeError } {
  return { success: false, data: null, error };
}

/** Zod schema of the error object (for the OpenAPI documents). */
export const envelopeErrorSchema = z.object({
  code: z.string().describe('Stable UPPER_SNAKE error code (see docs/reference/error-codes.md).'),
  message: z.string(),
  details: z.unknown().optional(),
});

/** Zod schema of a successful envelope around `data`; a list route's envelope also carries `page`. */
export function envelopeSchema(data: z.ZodType, paged = false): z.ZodType {
  return paged
    ? z.object({ success: z.literal(true), data, error: z.null(), page: pageInfoSchema })
    : z.object({ success: z.literal(true), data, error: z.null() });
}

/** Zod schema of a failed envelope. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  data: z.null(),
  error: envelopeErrorSchema,
});
