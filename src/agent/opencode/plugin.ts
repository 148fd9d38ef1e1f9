// ctxoff's opencode plugin, written by `ctxoff init opencode` (`--uninstall` removes it).
//
// It asks ctxoff about every bash call and applies the answer; ctxoff makes the decisions
// (`ctxoff hook opencode`). Before a call, with the running agent's permission rules, ctxoff may
// rewrite the command to run through it, where those rules decide the original and the rewrite
// alike. After a call whose command was not rewritten, a large output the client did not cut is
// saved by ctxoff and the agent gets its summary. Whatever goes wrong, the call is left as it is.
import { spawnSync } from "node:child_process";

const CTXOFF = __CTXOFF__;

function ask(call: unknown): any {
  try {
    const run = spawnSync(CTXOFF, ["hook", "opencode"], {
      input: JSON.stringify(call),
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0 || !run.stdout || !run.stdout.trim()) return {};
    return JSON.parse(run.stdout);
  } catch {
    return {};
  }
}

// The running agent's name and its permission rules, as the client evaluates them.
async function ruleset(client: any, sessionID: string) {
  const messages = (await client.session.messages({ path: { id: sessionID } }))?.data ?? [];
  const agent = [...messages].reverse().map((m: any) => m?.info?.agent).find(Boolean);
  const agents = (await client.app.agents())?.data ?? [];
  const found = agents.find((a: any) => a?.name === agent);
  return { agent, permission: found?.permission };
}

export const Ctxoff = async ({ client }: any) => ({
  "tool.execute.before": async (input: any, output: any) => {
    if (input?.tool !== "bash" || !output?.args) return;
    try {
      const { agent, permission } = await ruleset(client, input.sessionID);
      if (!Array.isArray(permission)) return;
      const answer = ask({
        hook: "tool.execute.before",
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        args: output.args,
        agent,
        permission,
      });
      if (answer?.args && typeof answer.args.command === "string") {
        Object.assign(output.args, answer.args);
      }
    } catch {}
  },
  "tool.execute.after": async (input: any, output: any) => {
    if (input?.tool !== "bash" || typeof output?.output !== "string") return;
    const answer = ask({
      hook: "tool.execute.after",
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: input.args,
      output: { output: output.output, metadata: output.metadata },
    });
    if (typeof answer?.output === "string") output.output = answer.output;
  },
});
