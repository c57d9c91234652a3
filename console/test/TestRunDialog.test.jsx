import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TestRunDialog, { payloadText, readPayload } from '../src/TestRunDialog.jsx';
import { fakeFetch } from './fixtures.js';

const ADA = { id: 'c-ada', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };

beforeEach(() => {
  sessionStorage.setItem('crmflow.apiKey', 'k');
});
afterEach(() => vi.unstubAllGlobals());

describe('the test run dialog', () => {
  it('picks a contact by name, sends the sample payload and the node alone, and hands the run on', async () => {
    const user = userEvent.setup();
    const fetch = fakeFetch({
      'GET /api/v1/contacts': { contacts: [ADA], total: 1 },
      'POST /api/v1/sequences/s-1/test-runs': { status: 201, body: { run_id: 'r-1', run: { id: 'r-1', test: true } } },
    });
    vi.stubGlobal('fetch', fetch);
    const started = vi.fn();
    render(
      <TestRunDialog
        sequenceId="s-1"
        sample={{ plan: 'pro', contact_id: 'someone-else' }}
        node={{ id: 'call', label: 'Notify the CRM' }}
        onClose={() => {}}
        onStarted={started}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Test run' })).toBeInTheDocument();
    expect(screen.getByLabelText('Sample payload (JSON)')).toHaveValue('{\n  "plan": "pro"\n}');
    const start = screen.getByRole('button', { name: 'Start test run' });
    expect(start).toBeDisabled();

    await user.type(screen.getByLabelText('Contact'), 'ada');
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace · ada@example.com' }));
    expect(screen.getByText('For Ada Lovelace · ada@example.com')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'GET').path).toBe('/api/v1/contacts?search=ada&limit=10');
    await user.click(screen.getByLabelText('Only this node: Notify the CRM'));
    expect(start).toBeEnabled();
    await user.click(start);

    await waitFor(() => expect(started).toHaveBeenCalledWith('r-1'));
    const sent = fetch.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(sent.body)).toEqual({ contact_id: 'c-ada', payload: { plan: 'pro' }, node_id: 'call' });
  });

  it('does not start with a payload that is no JSON object, and shows a refusal of the API', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/v1/contacts': { contacts: [ADA], total: 1 },
        'POST /api/v1/sequences/s-1/test-runs': {
          status: 422,
          body: { detail: 'The flow cannot run: 1 problem(s) in its canvas.', errors: [{ field: 'nodes.mail.data.config.subject', message: 'an email needs templateId or subject' }] },
        },
      }),
    );
    const started = vi.fn();
    render(<TestRunDialog sequenceId="s-1" sample={null} node={null} onClose={() => {}} onStarted={started} />);
    expect(screen.queryByLabelText(/Only this node/)).toBeNull();
    await user.type(screen.getByLabelText('Contact'), 'ada');
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace · ada@example.com' }));
    const payload = screen.getByLabelText('Sample payload (JSON)');
    await user.clear(payload);
    await user.type(payload, '[[1]');
    expect(screen.getByText('The payload must be a JSON object.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start test run' })).toBeDisabled();

    await user.clear(payload);
    await user.click(screen.getByRole('button', { name: 'Start test run' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The flow cannot run: 1 problem(s) in its canvas.');
    expect(alert).toHaveTextContent('nodes.mail.data.config.subject: an email needs templateId or subject');
    expect(started).not.toHaveBeenCalled();
  });

  it('reads the payload box and shows a sample without its contact', () => {
    expect(readPayload('')).toEqual({ payload: {} });
    expect(readPayload('{"a": 1}')).toEqual({ payload: { a: 1 } });
    expect(readPayload('{').error).toMatch(/^The payload is not JSON/);
    expect(payloadText({ contact_id: 'x' })).toBe('{}');
    expect(payloadText(['x'])).toBe('{}');
  });
});
