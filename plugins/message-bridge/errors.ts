/** Error catalogue of the message bridge. */
import { defineErrorCatalogue } from '../../kernel/errors.ts';

/** Errors the bridge routes raise themselves (adapters raise their own). */
export const bridgeErrors = defineErrorCatalogue({
  STANDARD_NOT_DETECTED: {
    status: 400,
    message:
      '{field} is not recognisable as any registered standard ({standards}); name it with "standard" or check the content.',
  },
  UNKNOWN_STANDARD: {
    status: 400,
    message: 'standard "{standard}" is not available; registered standards: {standards}.',
  },
  STANDARDS_DIFFER: {
    status: 400,
    message: '{leftName} looks like {left} but {rightName} looks like {right}; only messages of one standard compare.',
  },
});
