/**
 * faker's en_US locale, loaded on first use: from faker's en_US entry, since the package's main entry loads every
 * locale (2 MB) where generation needs one, and not at all by commands that never generate (validation, diff).
 */
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

const require = createRequire(import.meta.url);
let template: Faker | undefined;

/** The shared en_US faker (locale chain en_US, en, base); never seed it: take a {@link newEnUsFaker} for that. */
export function enUsFaker(): Faker {
  template ??= (require('@faker-js/faker/locale/en_US') as { faker: Faker }).faker;
  return template;
}

/** A new faker of its own over the en_US locale chain, ready to be seeded. */
export function newEnUsFaker(): Faker {
  const shared = enUsFaker();
  const FakerClass = shared.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  return new FakerClass({ locale: shared.rawDefinitions });
}
