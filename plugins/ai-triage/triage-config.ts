/** The AI triage plugin's config section (`plugins.ai-triage`). */
import { z } from 'zod';

/** Schema of `plugins.ai-triage.llm`: an OpenAI-compatible chat-completions endpoint, off by default. */
export const llmConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** Base address of the API (`http://127.0.0.1:11434/v1` for a local Ollama); `/chat/completions` is appended. */
    baseUrl: z.string().url().default('http://127.0.0.1:11434/v1'),
    model: z.string().min(1).default('llama3.1'),
    /** Name of the environment variable holding the API key (never the key itself); none for local servers. */
    apiKeyEnv: z.string().min(1).optional(),
    timeoutMs: z.number().int().min(100).max(120_000).default(15_000),
    /** A baseUrl that is not a loopback address is refused unless this is true. */
    allowRemote: z.boolean().default(false),
  })
  .strict();

/** Schema of `plugins.ai-triage`. */
export const triageConfigSchema = z
  .object({
    llm: llmConfigSchema.default(llmConfigSchema.parse({})),
    /** Run the upgrade detector as a monitor alert rule (`vendor-upgrade`) after every commit and check. */
    upgradeAlertRule: z.boolean().default(false),
    /** Window of the upgrade alert rule, in hours. */
    upgradeAlertHours: z.number().int().min(1).max(24 * 30).default(24),
    /**
     * Seconds a verdict of the alert rule is reused for an interface: the rule runs after every committed file, and a
     * verdict reads the interface's last week, so a busy feed is judged at most this often.
     */
    upgradeAlertReuseSeconds: z.number().int().min(0).max(3_600).default(60),
    /**
     * Days the triage aggregate keeps its buckets (pruned daily): patterns read back twice their window (90 days at
     * most) and the upgrade check its window and a baseline as long (at least a week), so 190 days answer every window.
     */
    aggregateRetentionDays: z.number().int().min(1).max(3_660).default(190),
  })
  .strict();

/** The validated config. */
export type TriageConfig = z.infer<typeof triageConfigSchema>;

/** The validated LLM config. */
export type LlmConfig = z.infer<typeof llmConfigSchema>;
