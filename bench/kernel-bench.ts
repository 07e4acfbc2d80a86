/**
 * Kernel overhead: GET /api/health through the Workbench beside a bare fastify route, and POST /api/validate with a
 * 1.2 KB HL7 message beside a bare fastify POST route that parses a JSON body of the same size; same run, same load.
 */
import { fmt, measureLoad, measurePair, startServer } from './http-load.ts';

/** A realistic 1.25 KB ADT^A01 v2.5 message (escapes and repetitions included) that validates clean in strict mode. */
export function sampleMessage(): string {
  const segments = [
    'MSH|^~\\&|ADT1|GOOD HEALTH HOSPITAL|GHH LAB, INC.|GOOD HEALTH HOSPITAL|20250615120000||ADT^A01^ADT_A01|MSG00001|P|2.5',
    'EVN|A01|20250615120000',
    'PID|1||PATID1234^^^GOOD HEALTH HOSPITAL^MR~123456789^^^USSSA^SS||EVERYMAN^ADAM^A^III||19610615|M||2106-3^White^CDCREC|2222 HOME STREET^^GREENSBORO^NC^27401-1020^USA||(555)555-0123~(555)555-0145|(555)555-0155|EN^English^ISO6391|S||PATID12345001^2^M10^ADT1^AN^A|900-12-3456|||N^Not Hispanic or Latino^HL70189',
    'PD1|||GOOD HEALTH CLINIC \\T\\ FAMILY PRACTICE^^1234',
    'NK1|1|NUCLEAR^NELDA^W|SPO^Spouse^HL70063|2222 HOME STREET^^GREENSBORO^NC^27401-1020^USA|(555)555-0123',
    'PV1|1|I|2000^2012^01||||004777^ATTEND^AARON^A|||SUR||||ADM|A0|||||||||||||||||||||||||||||202506151200',
    'OBX|1|NM|8867-4^Heart rate^LN||72|/min^beats per minute^UCUM|60-100|N|||F',
    'OBX|2|ST|8302-2^Body height^LN||Patient measured standing \\T\\ barefoot|||N|||F',
    'OBX|3|NM|8480-6^Systolic blood pressure^LN||128|mm[Hg]^millimeter of mercury^UCUM|90-140|N|||F',
    'OBX|4|NM|8462-4^Diastolic blood pressure^LN||82|mm[Hg]^millimeter of mercury^UCUM|60-90|N|||F',
    'AL1|1|DA|1545^PENICILLIN^RXNORM|SV|HIVES',
    'DG1|1||I10^Essential (primary) hypertension^I10||20250615|A',
    'IN1|1|BC1^Blue Cross^HL70072|3001^^^GHH|BLUE CROSS|PO BOX 1000^^GREENSBORO^NC^27401||(555)555-0188|GRP-12345',
  ];
  return segments.join('\r');
}

/** Runs the kernel HTTP benchmark and returns its figures. */
export async function runKernelBench(): Promise<Record<string, number>> {
  const bare = await startServer('bare-fastify-server');
  const bareValidateServer = await startServer('bare-fastify-validate-server');
  const workbench = await startServer('workbench-server');
  try {
    const urls = JSON.parse(workbench.ready) as Record<string, string>;
    const message = sampleMessage();
    const validateBody = JSON.stringify({ messageContent: message });
    const bareBody = JSON.stringify({ messageContent: 'x'.repeat(Buffer.byteLength(message) - 200) });
    const check = await fetch(`${urls.bridge}/api/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: validateBody,
    });
    const checked = (await check.json()) as { data: { isValid: boolean } };
    if (!checked.data.isValid) throw new Error('the benchmark message must be valid so the whole validation runs');
    // Warm-up: JIT, definitions loaded on first use.
    await measureLoad({ url: `${urls.monitor}/api/health`, durationSeconds: 1 });
    await measureLoad({ url: `${urls.bridge}/api/validate`, method: 'POST', body: validateBody, durationSeconds: 1 });
    await measureLoad({ url: `${bare.ready}/api/health`, durationSeconds: 1 });

    const [health, bareGet] = await measurePair({ url: `${urls.monitor}/api/health` }, { url: `${bare.ready}/api/health` });
    const [validate, barePost] = await measurePair(
      { url: `${urls.bridge}/api/validate`, method: 'POST', body: validateBody },
      { url: `${bare.ready}/api/echo`, method: 'POST', body: bareBody },
    );
    const [validateAgain, bareValidate] = await measurePair(
      { url: `${urls.bridge}/api/validate`, method: 'POST', body: validateBody },
      { url: `${bareValidateServer.ready}/api/validate`, method: 'POST', body: validateBody },
    );
    if (health.non2xx > 0 || validate.non2xx > 0) throw new Error('workbench answered non-2xx during the benchmark');
    const healthRatio = health.requestsPerSecond / bareGet.requestsPerSecond;
    const validateRatio = validate.requestsPerSecond / barePost.requestsPerSecond;
    const kernelPostRatio = validateAgain.requestsPerSecond / bareValidate.requestsPerSecond;
    console.log(
      `GET /api/health: workbench ${fmt(health.requestsPerSecond)} req/s (p99 ${health.p99Ms} ms) | bare fastify ${fmt(bareGet.requestsPerSecond)} req/s (p99 ${bareGet.p99Ms} ms) | ratio ${fmt(healthRatio, 2)}x (goal >= 0.80)`,
    );
    console.log(
      `POST /api/validate (${Buffer.byteLength(message)} B HL7): workbench ${fmt(validate.requestsPerSecond)} req/s (p99 ${validate.p99Ms} ms) | bare fastify JSON POST ${fmt(barePost.requestsPerSecond)} req/s | ratio ${fmt(validateRatio, 2)}x (goal >= 0.70)`,
    );
    console.log(
      `POST /api/validate vs a bare fastify route calling the same HL7 validator: workbench ${fmt(validateAgain.requestsPerSecond)} req/s | bare ${fmt(bareValidate.requestsPerSecond)} req/s | ratio ${fmt(kernelPostRatio, 2)}x (the kernel's own cost on a POST)`,
    );
    return {
      healthRps: health.requestsPerSecond,
      healthP99Ms: health.p99Ms,
      bareGetRps: bareGet.requestsPerSecond,
      bareGetP99Ms: bareGet.p99Ms,
      healthRatio: Number(healthRatio.toFixed(3)),
      validateRps: validate.requestsPerSecond,
      validateP99Ms: validate.p99Ms,
      barePostRps: barePost.requestsPerSecond,
      validateRatio: Number(validateRatio.toFixed(3)),
      bareValidateRps: bareValidate.requestsPerSecond,
      kernelPostRatio: Number(kernelPostRatio.toFixed(3)),
    };
  } finally {
    await bare.stop();
    await bareValidateServer.stop();
    await workbench.stop();
  }
}
