/** The de-identification plugin's config section (`plugins.deidentify`). */
import { z } from 'zod';

/** Schema of `plugins.deidentify`. */
export const deidentifyConfigSchema = z
  .object({
    /**
     * The key file of the keyed hash, relative to the data folder (or absolute). Created with 32 random bytes and
     * mode 0600 on first use; the same file gives the same pseudonyms across runs.
     */
    keyFile: z.string().min(1).default('deidentify.key'),
    /**
     * Paths whose values are known to hold nothing identifying, kept instead of redacted when the de-identifier cannot
     * classify them: an HL7 segment or field (`ZPI`, `ZPI.3`, `PID.40`), a FHIR extension URL, or a FHIR element path
     * as the report writes it (`Patient.extension.valueString`). Known identifiers still travel into them.
     */
    safePaths: z.array(z.string().min(1).max(500)).max(10_000).default([]),
  })
  .strict();

/** The validated config. */
export type DeidentifyConfig = z.infer<typeof deidentifyConfigSchema>;
