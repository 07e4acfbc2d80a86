/**
 * Structural validation of a FHIR R4 resource against the StructureDefinitions @medplum/core has indexed: the rules
 * of @medplum/core 4.5's `validateResource` (src/typeschema/validation.ts and crawler.ts, Apache-2.0), applied in the
 * same order and reported as the same OperationOutcome issues (cardinality, JSON types, primitive formats, unknown
 * properties, fixed and pattern values, slices, reference targets, the error invariants of every element).
 *
 * What differs is the cost. @medplum/core visits every element its definitions list, present or not, building a
 * path and a typed value for each and the JSON property names of choice elements anew at every object. Here an
 * absent optional element costs one property look-up (typed-properties.ts keeps each element's spellings), a path
 * is built only for a value that is present or required, and each invariant's FHIRPath is parsed once. Whatever
 * carries meaning (emptiness, pattern matching, FHIRPath evaluation, the wording of issues, which types exist) is
 * @medplum/core's own exported code, so the verdicts stay its verdicts.
 */
import type { Constraint, InternalSchemaElement, InternalTypeSchema, SliceDefinition, SlicingRules, TypedValue } from '@medplum/core';
import { medplumCore } from '../medplum-core.ts';
import { type StructureIssue, checkObjectForNull, unpackPrimitiveElement } from './structure-values.ts';
import { type TypedValueWithPath, isEmptyValue, typedPropertyValue } from './typed-properties.ts';

/** Constraint keys @medplum/core never evaluates (as its `skippedConstraintKeys`). */
const SKIPPED_CONSTRAINT_KEYS: Record<string, boolean> = { 'ele-1': true, 'dom-3': true, 'org-1': true, 'sdf-19': true };

/** The elements of a type in their definition order, each with whether the fast look-up applies to its key. */
interface SchemaEntry {
  key: string;
  element: InternalSchemaElement;
  /** A plain property name (no `.` path, not `$this`). */
  plain: boolean;
}

const entriesBySchema = new WeakMap<InternalTypeSchema, readonly SchemaEntry[]>();

function entriesOf(schema: InternalTypeSchema): readonly SchemaEntry[] {
  let entries = entriesBySchema.get(schema);
  if (!entries) {
    entries = Object.keys(schema.elements).map((key) => ({ key, element: schema.elements[key] as InternalSchemaElement, plain: !key.includes('.') && key !== '$this' }));
    entriesBySchema.set(schema, entries);
  }
  return entries;
}

/** Per element map, the choice stems (`value` of `value[x]`) a JSON key may start with; none for most types. */
const choiceStemsByElements = new WeakMap<object, boolean>();

function hasChoiceElements(properties: Record<string, InternalSchemaElement>): boolean {
  let has = choiceStemsByElements.get(properties);
  if (has === undefined) {
    has = Object.keys(properties).some((key) => key.endsWith('[x]'));
    choiceStemsByElements.set(properties, has);
  }
  return has;
}

/** Parsed FHIRPath of each invariant, parsed on first use (a parse failure is reported every time, never kept). */
const parsedConstraints = new WeakMap<Constraint, ReturnType<ReturnType<typeof medplumCore>['parseFhirPath']>>();

function isIntegerType(type: string): boolean {
  return type === 'integer' || type === 'positiveInt' || type === 'unsignedInt';
}

class StructureValidator {
  private readonly core = medplumCore();
  readonly issues: StructureIssue[] = [];
  private readonly currentResource: unknown[] = [];
  private readonly schema: InternalTypeSchema;

  constructor(private readonly root: TypedValue) {
    if (this.core.isResource(root.value)) this.currentResource.push(root.value);
    this.schema = this.core.getDataType(root.type);
  }

  validate(): StructureIssue[] {
    const path = this.schema.path;
    this.constraintsCheck({ ...this.root, path }, this.schema);
    checkObjectForNull(this.root.value as Record<string, unknown>, path, this.issues);
    this.crawlObject({ ...this.root, path }, this.schema, path);
    return this.issues;
  }

  private crawlObject(object: TypedValueWithPath, schema: InternalTypeSchema, path: string): void {
    const isResource = this.core.isResource(object.value);
    if (isResource) this.currentResource.push(object.value);
    // The fast look-up reads the elements of `schema`; @medplum/core reads those of the value's own type, the same
    // schema everywhere the base definitions are used. Otherwise, its own look-up.
    const fast = this.core.tryGetDataType(object.type) === schema;
    for (const entry of entriesOf(schema)) {
      if (fast && entry.plain) this.crawlPlainProperty(object, entry, path);
      else this.crawlProperty(object, entry.key, schema, `${path}.${entry.key}`);
    }
    this.checkAdditionalProperties(object, schema.elements, object.path, fast);
    if (isResource) this.currentResource.pop();
  }

  /** One element read with the kept spellings: an absent optional element costs nothing more. */
  private crawlPlainProperty(parent: TypedValueWithPath, entry: SchemaEntry, path: string): void {
    const value = parent.value ? typedPropertyValue(parent.value, entry.element, parent.path, entry.key) : undefined;
    if (value === undefined) {
      if (entry.element.min > 0) this.issues.push(this.core.createStructureIssue(parent.path ? `${parent.path}.${entry.key}` : entry.key, 'Missing required property'));
      return;
    }
    const propertyPath = `${path}.${entry.key}`;
    this.visitProperty(entry.element, propertyPath, [value]);
    this.crawlValues(value, propertyPath);
  }

  /** One element read by @medplum/core's own `getNestedProperty` (a nested path, or a type read otherwise). */
  private crawlProperty(parent: TypedValueWithPath, key: string, schema: InternalTypeSchema, path: string): void {
    const values = this.core.getNestedProperty(parent, key, { withPath: true }) as Array<TypedValueWithPath | TypedValueWithPath[]>;
    const element = schema.elements[key];
    if (!element) throw new Error(`Missing element validation schema for ${key}`);
    this.visitProperty(element, path, values);
    for (const value of values) if (value) this.crawlValues(value, path);
  }

  private crawlValues(value: TypedValueWithPath | TypedValueWithPath[], path: string): void {
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) {
      // Recursively as the value's data type.
      if (!this.core.isPrimitiveType(item.type)) this.crawlObject(item, this.core.getDataType(item.type), path);
    }
  }

  private visitProperty(element: InternalSchemaElement, path: string, propertyValues: Array<TypedValueWithPath | TypedValueWithPath[]>): void {
    for (const value of propertyValues) {
      if (!this.checkPresence(value, element, path)) return;
      let values: TypedValueWithPath[];
      if (element.isArray) {
        if (!Array.isArray(value)) {
          this.issues.push(this.core.createStructureIssue(path, 'Expected array of values for property'));
          return;
        }
        values = value;
      } else {
        if (Array.isArray(value)) {
          this.issues.push(this.core.createStructureIssue(path, 'Expected single value for property'));
          return;
        }
        values = [value];
      }
      if (values.length < element.min || values.length > element.max) {
        const max = Number.isFinite(element.max) ? element.max : '*';
        this.issues.push(this.core.createStructureIssue(element.path, `Invalid number of values: expected ${element.min}..${max}, but found ${values.length}`));
      }
      if (!this.matchesSpecifiedValue(value, element)) this.issues.push(this.core.createStructureIssue(path, 'Value did not match expected pattern'));
      const sliceCounts: Record<string, number> | undefined = element.slicing ? Object.fromEntries(element.slicing.slices.map((s) => [s.name, 0])) : undefined;
      for (const item of values) {
        this.constraintsCheck(item, element);
        this.referenceTypeCheck(item, element);
        this.checkPropertyValue(item);
        const sliceName = this.checkSliceElement(item, element.slicing);
        if (sliceName && sliceCounts) sliceCounts[sliceName] = (sliceCounts[sliceName] as number) + 1;
      }
      this.validateSlices(element.slicing?.slices, sliceCounts, path);
    }
  }

  private checkPresence(value: TypedValueWithPath | TypedValueWithPath[], element: InternalSchemaElement, path: string): boolean {
    if (!Array.isArray(value) && value.value === undefined) {
      if (element.min > 0) this.issues.push(this.core.createStructureIssue(value.path, 'Missing required property'));
      return false;
    }
    if (isEmptyValue(value)) {
      this.issues.push(this.core.createStructureIssue(path, 'Invalid empty value'));
      return false;
    }
    return true;
  }

  private checkPropertyValue(value: TypedValueWithPath): void {
    if (this.core.isPrimitiveType(value.type)) this.validatePrimitiveType(value);
    else if (isEmptyValue(value.value)) this.issues.push(this.core.createStructureIssue(value.path, 'Invalid empty non-primitive value'));
  }

  private matchesSpecifiedValue(value: TypedValue | TypedValue[], element: InternalSchemaElement): boolean {
    if (!element.pattern && !element.fixed) return true;
    const typeAndValue = Array.isArray(value) ? value.map((v) => ({ type: v.type, value: v.value })) : { type: value.type, value: value.value };
    if (element.pattern && !this.core.deepIncludes(typeAndValue, element.pattern)) return false;
    if (element.fixed && !this.core.deepEquals(typeAndValue, element.fixed)) return false;
    return true;
  }

  private checkSliceElement(value: TypedValue, slicing: SlicingRules | undefined): string | undefined {
    if (!slicing) return undefined;
    for (const slice of slicing.slices) {
      const matches = slicing.discriminator.every((discriminator) =>
        this.core.arrayify(this.core.getNestedProperty(value, discriminator.path))?.some((v) => this.core.matchDiscriminant(v, discriminator, slice)),
      );
      if (matches) return slice.name;
    }
    return undefined;
  }

  private validateSlices(slices: SliceDefinition[] | undefined, counts: Record<string, number> | undefined, path: string): void {
    if (!slices || !counts) return;
    for (const slice of slices) {
      const count = counts[slice.name] as number;
      if (count < slice.min || count > slice.max) {
        const max = Number.isFinite(slice.max) ? slice.max : '*';
        this.issues.push(this.core.createStructureIssue(path, `Incorrect number of values provided for slice '${slice.name}': expected ${slice.min}..${max}, but found ${count}`));
      }
    }
  }

  /** `fast`: `properties` are the elements of the parent's own type (see crawlObject). */
  private checkAdditionalProperties(parent: TypedValueWithPath, properties: Record<string, InternalSchemaElement>, path: string, fast: boolean): void {
    const object = parent.value as Record<string, unknown> | undefined;
    if (!object) return;
    const withChoices = hasChoiceElements(properties);
    const choiceOfTypeElements: Record<string, string> = {};
    for (const key of Object.keys(object)) {
      if (key === 'resourceType') continue;
      const choiceName = withChoices ? this.choiceOfType(parent, key, properties, fast) : undefined;
      if (choiceName) {
        let relatedName: string;
        let requiredRelatedName: string;
        if (choiceName.startsWith('_')) {
          relatedName = choiceName.slice(1);
          requiredRelatedName = key.slice(1);
        } else {
          relatedName = `_${choiceName}`;
          requiredRelatedName = `_${key}`;
        }
        if (relatedName in choiceOfTypeElements && choiceOfTypeElements[relatedName] !== requiredRelatedName) {
          const property = choiceName.startsWith('_') ? choiceName.slice(1) : choiceName;
          this.issues.push(this.core.createOperationOutcomeIssue('warning', 'structure', `Type of primitive extension does not match the type of property "${property}"`, choiceName));
        }
        if (choiceOfTypeElements[choiceName]) {
          this.issues.push(
            this.core.createOperationOutcomeIssue('warning', 'structure', `Conflicting choice of type properties: "${key}", "${choiceOfTypeElements[choiceName]}"`, key),
          );
        }
        choiceOfTypeElements[choiceName] = key;
        continue;
      }
      if (!(key in properties) && !(key.startsWith('_') && key.slice(1) in properties)) {
        this.issues.push(this.core.createStructureIssue(`${path}.${key}`, `Invalid additional property "${key}"`));
      }
    }
  }

  /**
   * The choice element (`value[x]`, `_value[x]`) a key spells, if the value holds it: the shortest prefix of the key
   * ending before a capital letter, or the whole key, that names a choice element.
   */
  private choiceOfType(parent: TypedValue, key: string, properties: Record<string, InternalSchemaElement>, fast: boolean): string | undefined {
    let prefix = '';
    let name = key;
    if (name.startsWith('_')) {
      name = name.slice(1);
      prefix = '_';
    }
    for (let end = 1; end <= name.length; end++) {
      const code = end < name.length ? name.charCodeAt(end) : -1;
      if (end < name.length && (code < 65 || code > 90)) continue;
      const stem = name.slice(0, end);
      if (properties[`${stem}[x]`]) return this.holds(parent, stem, properties, fast) ? `${prefix}${stem}[x]` : undefined;
    }
    // An empty name (the key `_`) is its own one prefix.
    if (name.length === 0 && properties['[x]']) return this.holds(parent, '', properties, fast) ? `${prefix}[x]` : undefined;
    return undefined;
  }

  /** Whether the value holds the element `name` (`value` of `value[x]`), read as @medplum/core's getTypedPropertyValue. */
  private holds(parent: TypedValue, name: string, properties: Record<string, InternalSchemaElement>, fast: boolean): boolean {
    if (!fast) return this.core.getTypedPropertyValue(parent, name) !== undefined;
    if (!parent.value) return false;
    const element = properties[name] ?? properties[`${name}[x]`];
    return element !== undefined && typedPropertyValue(parent.value, element, '', name) !== undefined;
  }

  private constraintsCheck(value: TypedValueWithPath, field: InternalTypeSchema | InternalSchemaElement): void {
    const constraints = field.constraints;
    if (!constraints) return;
    for (const constraint of constraints) {
      if (constraint.severity === 'error' && !(constraint.key in SKIPPED_CONSTRAINT_KEYS)) {
        if (!this.isExpressionTrue(constraint, value)) {
          this.issues.push(this.core.createConstraintIssue(value.path, constraint));
          return;
        }
      }
    }
  }

  private isExpressionTrue(constraint: Constraint, value: TypedValueWithPath): boolean {
    const core = this.core;
    const variables: Record<string, TypedValue> = { '%context': value, '%ucum': core.toTypedValue(core.UCUM) };
    if (this.currentResource.length > 0) variables['%resource'] = core.toTypedValue(this.currentResource[this.currentResource.length - 1]);
    if (core.isResource(this.root.value)) variables['%rootResource'] = this.root;
    try {
      let parsed = parsedConstraints.get(constraint);
      if (!parsed) {
        parsed = core.parseFhirPath(constraint.expression);
        parsedConstraints.set(constraint, parsed);
      }
      const result = core.evalFhirPathTyped(parsed, [value], variables);
      return result.length === 1 && (result[0] as TypedValue).value === true;
    } catch (error) {
      this.issues.push(core.createProcessingIssue(value.path, 'Error evaluating invariant expression', error as Error, { fhirpath: constraint.expression }));
      return false;
    }
  }

  private referenceTypeCheck(value: TypedValueWithPath, element: InternalSchemaElement): void {
    if (value.type !== 'Reference') return;
    const reference = value.value;
    // Unrecognized reference shapes and contained references are not judged.
    if (!this.core.isReference(reference) || reference.reference.startsWith('#')) return;
    const text = reference.reference;
    const referencedType = text.includes('?') ? text.split('?')[0] : text.split('/')[0];
    if (!referencedType) return;
    const targetProfiles = element.type.find((t) => t.code === 'Reference')?.targetProfile;
    if (!targetProfiles) return;
    const hl7Base = `${this.core.HTTP_HL7_ORG}/fhir/StructureDefinition/`;
    const medplumBase = 'https://medplum.com/fhir/StructureDefinition/';
    for (const targetProfile of targetProfiles) {
      if (targetProfile === `${hl7Base}Resource` || targetProfile === hl7Base + referencedType || targetProfile === medplumBase + referencedType) return;
      // A profile of another namespace (US Core...) cannot be judged.
      if (!targetProfile.startsWith(hl7Base) && !targetProfile.startsWith(medplumBase)) return;
    }
    this.issues.push(
      this.core.createOperationOutcomeIssue('warning', 'structure', `Invalid reference: got "${referencedType}", expected "${targetProfiles.join('", "')}"`, value.path),
    );
  }

  private validatePrimitiveType(typedValue: TypedValueWithPath): void {
    const [primitiveValue, extensionElement] = unpackPrimitiveElement(typedValue);
    const path = typedValue.path;
    if (primitiveValue) {
      const { type, value } = primitiveValue;
      const jsTypes = this.core.fhirTypeToJsType as Record<string, string>;
      if (!(type in jsTypes)) {
        this.issues.push(this.core.createStructureIssue(path, `Invalid JSON type: ${type} is not a valid FHIR type`));
        return;
      }
      const expectedType = jsTypes[type];
      if (typeof value !== expectedType) {
        if (value !== null) this.issues.push(this.core.createStructureIssue(path, `Invalid JSON type: expected ${expectedType}, but got ${typeof value}`));
        return;
      }
      if (expectedType === 'string') this.validateString(value as string, type, path);
      else if (expectedType === 'number') this.validateNumber(value as number, type, path);
    }
    if (extensionElement) {
      const schema = this.core.getDataType('Element');
      this.crawlObject({ ...extensionElement, path }, schema, path);
    }
  }

  private validateString(text: string, type: string, path: string): void {
    if (!text.trim()) {
      this.issues.push(this.core.createStructureIssue(path, 'String must contain non-whitespace content'));
      return;
    }
    // FHIR strings are at most 1 MB (R4 datatypes.html#string).
    if (text.length > 1024 * 1024) {
      this.issues.push(this.core.createStructureIssue(path, 'String cannot be larger than 1 MB'));
      return;
    }
    const regex = this.core.validationRegexes[type];
    if (regex && !regex.exec(text)) this.issues.push(this.core.createStructureIssue(path, `Invalid ${type} format`));
  }

  private validateNumber(n: number, type: string, path: string): void {
    if (Number.isNaN(n) || !Number.isFinite(n)) this.issues.push(this.core.createStructureIssue(path, 'Invalid numeric value'));
    else if (isIntegerType(type) && !Number.isInteger(n)) this.issues.push(this.core.createStructureIssue(path, 'Expected number to be an integer'));
    else if (type === 'positiveInt' && n <= 0) this.issues.push(this.core.createStructureIssue(path, 'Expected number to be positive'));
    else if (type === 'unsignedInt' && n < 0) this.issues.push(this.core.createStructureIssue(path, 'Expected number to be non-negative'));
  }
}

/**
 * Validates a parsed resource against its base definition and returns @medplum/core's issues (errors and warnings).
 * Throws where `validateResource` throws for a reason other than the issues it found: an OperationOutcomeError for
 * a missing resourceType or a type no definition describes, any other error where a value cannot be read.
 */
export function validateStructure(resource: Record<string, unknown>): StructureIssue[] {
  const core = medplumCore();
  if (!resource.resourceType) throw new core.OperationOutcomeError(core.validationError('Missing resource type'));
  return new StructureValidator(core.toTypedValue(resource)).validate();
}
