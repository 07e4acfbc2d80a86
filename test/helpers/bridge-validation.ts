/**
 * The bridge's `POST /api/validate` for test files that send many messages: one test Workbench started before the
 * file's tests and stopped after them, and a call that answers the validation data (asserting the 200).
 */
import { expect } from 'vitest';
import { useTestWorkbench } from './test-workbench.ts';

/** One finding as `/api/validate` answers it. */
export interface ValidationFinding {
  field: string;
  code: string;
  severity: string;
  message: string;
  expected?: string;
  actual?: string;
}

/** The data of a validation answer. */
export interface ValidationData {
  isValid: boolean;
  errors: ValidationFinding[];
  warnings: ValidationFinding[];
}

/** Registers the file's Workbench (beforeAll/afterAll) and answers the validate call; call it at a file's top level. */
export function bridgeValidation(): { validate(body: Record<string, unknown>): Promise<ValidationData> } {
  const wb = useTestWorkbench();
  return {
    async validate(body) {
      const res = await wb.call('bridge', { method: 'POST', path: '/api/validate', body });
      expect(res.status).toBe(200);
      return res.json.data as ValidationData;
    },
  };
}
