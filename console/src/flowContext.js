// What a flow's templates can read besides its own canvas, for the variable picker and the
// template picker: a sample trigger payload with the outputs of the flow's last run, the tenant's
// custom fields of contacts and its email templates. Each part the key may not read stays empty.
import { useCallback, useEffect, useState } from 'react';
import { can, get } from './api.js';

/** {sample, runOutputs, customFields, templates, useSample(payload)} for the flow's editor. */
export function useFlowContext(me, sequenceId) {
  const [context, setContext] = useState({ sample: null, runOutputs: null, customFields: null, templates: null });
  useEffect(() => {
    let live = true;
    const set = (part) => live && setContext((c) => ({ ...c, ...part }));
    if (can(me, 'automation_runs:read')) {
      get(`/api/v1/automation-runs?sequence_id=${sequenceId}&limit=1`)
        .then(async (answer) => {
          const last = answer.runs?.[0];
          if (!last) return;
          const run = (await get(`/api/v1/automation-runs/${last.id}`)).run;
          const runOutputs = {};
          for (const entry of run.node_log || []) if (entry.output) runOutputs[entry.nodeId] = entry.output;
          set({ runOutputs, ...(run.trigger_payload && typeof run.trigger_payload === 'object' ? { sample: run.trigger_payload } : {}) });
        })
        .catch(() => {});
    }
    if (can(me, 'custom_fields:read')) {
      get('/api/v1/custom-fields?object_type=contact')
        .then((answer) => set({ customFields: answer.fields }))
        .catch(() => {});
    }
    get('/api/v1/email-templates?limit=100')
      .then((answer) => set({ templates: answer.email_templates }))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [me, sequenceId]);
  // a test event's body is the newest sample
  const useSample = useCallback((payload) => {
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) setContext((c) => ({ ...c, sample: payload }));
  }, []);
  return { ...context, useSample };
}
