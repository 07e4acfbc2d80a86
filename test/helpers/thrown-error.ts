/**
 * What a call threw, to assert on it without a conditional `expect` in a `catch`: `thrownBy(call)` answers the error
 * `call` threw, and throws itself (failing the test) when `call` returned instead.
 */

/** The error `call` threw; throws "no error thrown" when it returned. */
export function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to throw, but it returned.');
}
