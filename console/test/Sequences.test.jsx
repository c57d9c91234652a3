import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Sequences, { runsInWords } from '../src/Sequences.jsx';
import { parseRoute } from '../src/route.js';
import { fakeFetch } from './fixtures.js';

const ME = { tenant_id: 't', scopes: ['*'] };

function flow(name, extra = {}) {
  return {
    id: `id-${name.replace(/\W/g, '')}`,
    name,
    status: 'draft',
    flow_type: 'automation',
    current_version: 1,
    trigger_type: 'webhook_trigger',
    last_run_at: null,
    last_run_status: null,
    ...extra,
  };
}

/** The list as the address says, kept in step with it as the app does. */
function renderAt(hash) {
  window.location.hash = hash;
  const view = render(<Sequences me={ME} params={parseRoute(window.location.hash).params} />);
  const follow = () => view.rerender(<Sequences me={ME} params={parseRoute(window.location.hash).params} />);
  window.addEventListener('hashchange', follow);
  return { ...view, stop: () => window.removeEventListener('hashchange', follow) };
}

beforeEach(() => {
  sessionStorage.setItem('crmflow.apiKey', 'k');
});
afterEach(() => vi.unstubAllGlobals());

describe('the list of flows', () => {
  it('an empty tenant is offered New flow and Generate', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/v1/sequences': { sequences: [], total: 0 } }));
    const { stop } = renderAt('#/sequences');
    const empty = await screen.findByRole('heading', { name: 'No flows yet' });
    const box = empty.parentElement;
    expect(within(box).getByRole('button', { name: 'New flow' })).toBeEnabled();
    expect(within(box).getByRole('button', { name: 'Generate' })).toBeEnabled();
    stop();
  });

  it('the filters and the search live in the address, and the list asks the API with them', async () => {
    const user = userEvent.setup();
    const fetch = fakeFetch({ 'GET /api/v1/sequences': { sequences: [flow('Lead nurture')], total: 1 } });
    vi.stubGlobal('fetch', fetch);
    const { stop } = renderAt('#/sequences?status=draft&q=lead');
    await screen.findByText('Lead nurture');
    expect(screen.getByLabelText('Name')).toHaveValue('lead');
    expect(screen.getByLabelText('Status')).toHaveValue('draft');
    expect(fetch.calls[0].path).toBe('/api/v1/sequences?status=draft&flow_type=all&limit=25&offset=0&q=lead');
    await user.selectOptions(screen.getByLabelText('Kind'), 'sequence');
    await waitFor(() => expect(window.location.hash).toBe('#/sequences?status=draft&kind=sequence&q=lead'));
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'welcome');
    await waitFor(() => expect(window.location.hash).toBe('#/sequences?status=draft&kind=sequence&q=welcome'));
    await waitFor(() => expect(fetch.calls.at(-1).path).toContain('&q=welcome'));
    stop();
  });

  it('each flow shows its trigger and its last run; a rename happens in place', async () => {
    const user = userEvent.setup();
    let name = 'Lead nurture';
    const fetch = fakeFetch({
      'GET /api/v1/sequences': () => ({
        sequences: [flow(name, { last_run_at: new Date().toISOString(), last_run_status: 'failed' })],
        total: 1,
      }),
      'PATCH /api/v1/sequences/id-Leadnurture': (init) => {
        name = JSON.parse(init.body).name;
        return { sequence: flow(name) };
      },
    });
    vi.stubGlobal('fetch', fetch);
    const { stop } = renderAt('#/sequences');
    const row = (await screen.findByText('Lead nurture')).closest('tr');
    expect(within(row).getByText('webhook trigger')).toBeInTheDocument();
    expect(within(row).getByText('failed')).toBeInTheDocument();
    expect(within(row).getByText(/just now/)).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'More actions for Lead nurture' }));
    await user.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'New name of Lead nurture' });
    await user.clear(field);
    await user.type(field, 'Lead nurture EU{Enter}');
    expect(await screen.findByText('Lead nurture EU')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'PATCH').body).toBe('{"name":"Lead nurture EU"}');
    stop();
  });

  it('deleting a flow that has runs says what becomes of them and offers to archive it', async () => {
    const user = userEvent.setup();
    const fetch = fakeFetch({
      'GET /api/v1/sequences': { sequences: [flow('Busy', { status: 'paused' })], total: 1 },
      'GET /api/v1/automation-runs': (init, path) => ({ runs: [], total: path.includes('status=running') ? 2 : 7 }),
      'PATCH /api/v1/sequences/id-Busy': { sequence: flow('Busy', { status: 'archived' }) },
    });
    vi.stubGlobal('fetch', fetch);
    const { stop } = renderAt('#/sequences');
    const row = (await screen.findByText('Busy')).closest('tr');
    await user.click(within(row).getByRole('button', { name: 'More actions for Busy' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete…' }));
    const dialog = await screen.findByRole('dialog', { name: '“Busy” cannot be deleted' });
    expect(dialog).toHaveTextContent('It has 7 runs, 2 of them in progress.');
    // an archive asks what becomes of the runs in progress: ending them, as the API does, unless told
    expect(within(dialog).getByRole('group', { name: 'Its 2 runs in progress:' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /End them now/ })).toBeChecked();
    expect(within(dialog).queryByRole('radio', { name: /Hold them/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('radio', { name: /Let them finish/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Archive instead' }));
    await waitFor(() =>
      expect(
        fetch.calls.some((c) => c.method === 'PATCH' && c.body === '{"status":"archived","in_flight":"continue"}'),
      ).toBe(true),
    );
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    stop();
  });

  it('pausing asks what becomes of the runs in progress, with their number, and sends the choice', async () => {
    const user = userEvent.setup();
    const fetch = fakeFetch({
      'GET /api/v1/sequences': { sequences: [flow('Live', { status: 'active' })], total: 1 },
      'GET /api/v1/automation-runs': (init, path) => ({ runs: [], total: path.includes('status=running') ? 3 : 9 }),
      'PATCH /api/v1/sequences/id-Live': { sequence: flow('Live', { status: 'paused' }) },
    });
    vi.stubGlobal('fetch', fetch);
    const { stop } = renderAt('#/sequences');
    const row = (await screen.findByText('Live')).closest('tr');
    await user.click(within(row).getByRole('button', { name: 'Pause' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pause “Live”?' });
    expect(dialog).toHaveTextContent('It has 9 runs, 3 of them in progress.');
    const choices = within(dialog).getByRole('group', { name: 'Its 3 runs in progress:' });
    expect(within(choices).getAllByRole('radio').map((r) => r.value)).toEqual(['continue', 'hold', 'end']);
    expect(within(choices).getByRole('radio', { name: /Let them finish/ })).toBeChecked();
    await user.click(within(choices).getByRole('radio', { name: /Hold them/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Pause' }));
    await waitFor(() =>
      expect(fetch.calls.some((c) => c.method === 'PATCH' && c.body === '{"status":"paused","in_flight":"hold"}')).toBe(
        true,
      ),
    );
    stop();
  });

  it('the runs of a flow in words', () => {
    expect(runsInWords({ total: 0, running: 0 })).toBe('It has never run.');
    expect(runsInWords({ total: 1, running: 0 })).toBe('It has 1 run, none in progress.');
    expect(runsInWords(null)).toMatch(/could not be counted/);
  });
});
