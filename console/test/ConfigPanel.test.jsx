import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNodeTypes } from '../src/nodeTypes.js';
import ConfigPanel from '../src/ConfigPanel.jsx';
import { EdgePanel } from '../src/Editor.jsx';
import { NODE_TYPES_ANSWER, node } from './fixtures.js';

beforeAll(() => useNodeTypes(NODE_TYPES_ANSWER));

/** The panel of one node, its changes kept as the editor keeps them. */
function Panel({ start, nodes, edges = [], problems = [], context = {}, onConnect }) {
  const [current, setCurrent] = useState(start);
  const all = nodes.map((n) => (n.id === current.id ? current : n));
  return (
    <ConfigPanel
      node={current}
      nodes={all}
      edges={edges}
      problems={problems}
      tenantId="t-1"
      context={context}
      onChange={(data) => setCurrent((n) => ({ ...n, data: { ...n.data, ...data } }))}
      onConnect={onConnect}
      onDelete={() => {}}
    />
  );
}

describe('a node’s settings', () => {
  it('a variable goes where the caret is, picked from the sources the node can read', async () => {
    const user = userEvent.setup();
    const hook = node('hook', 'webhook_trigger', {}, 'Signup');
    const mail = node('mail', 'email', { subject: 'Hi !' }, 'Welcome');
    render(
      <Panel
        start={mail}
        nodes={[hook, mail]}
        edges={[{ id: 'e1', source: 'hook', target: 'mail' }]}
        context={{ sample: { plan: 'pro' }, customFields: [{ field_key: 'shoe_size', field_label: 'Shoe size' }] }}
      />,
    );
    const subject = screen.getByLabelText('Subject');
    subject.focus();
    subject.setSelectionRange(3, 3);
    const picker = screen.getByRole('combobox', { name: 'Insert a variable into Subject' });
    const groups = [...picker.querySelectorAll('optgroup')].map((g) => g.label);
    expect(groups).toEqual(['Trigger (sample from the last run or test event)', 'Contact', 'Contact: custom fields']);
    expect(within(picker).getByRole('option', { name: 'Shoe size — {{contact.custom_fields.shoe_size}}' })).toBeInTheDocument();
    await user.selectOptions(picker, 'contact.first_name');
    expect(subject).toHaveValue('Hi {{contact.first_name}}!');
  });

  it('every problem of a field is shown, not only the first', () => {
    const mail = node('mail', 'email', {}, 'Welcome');
    render(
      <Panel
        start={mail}
        nodes={[mail]}
        problems={[
          { key: 'subject', short: 'Subject: an email needs Template ID or Subject' },
          { key: 'subject', short: 'Subject: must be at most 200 characters' },
          { key: null, short: 'Not reachable from “Signup”' },
        ]}
      />,
    );
    const alert = screen.getAllByRole('alert')[0];
    expect(alert).toHaveTextContent('Subject: an email needs Template ID or Subject · Subject: must be at most 200 characters');
    expect(screen.getByRole('list', { name: 'Problems of this node' })).toHaveTextContent('Not reachable from “Signup”');
  });

  it('a template is picked by its name from the tenant’s templates', async () => {
    const user = userEvent.setup();
    const mail = node('mail', 'email', {}, 'Welcome');
    render(<Panel start={mail} nodes={[mail]} context={{ templates: [{ id: 'tpl-1', name: 'Welcome', subject: 'Hello' }] }} />);
    const picker = screen.getByLabelText('Email template');
    await user.selectOptions(picker, 'Welcome · Hello');
    expect(picker).toHaveValue('tpl-1');
  });

  it('a send window says its days, hours and time zone in words beside its controls', async () => {
    const user = userEvent.setup();
    const mail = node('mail', 'email', { window: { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', timezone: 'contact' } }, 'Welcome');
    render(<Panel start={mail} nodes={[mail]} />);
    const window = screen.getByRole('group', { name: 'Send window' });
    expect(window).toHaveTextContent('Mon–Fri 09:00–17:00, the contact’s time zone');
    await user.clear(screen.getByLabelText('Send window: time zone'));
    await user.type(screen.getByLabelText('Send window: time zone'), 'Europe/Berlin');
    await user.click(within(window).getByLabelText('Fri'));
    expect(window).toHaveTextContent('Mon–Thu 09:00–17:00, Europe/Berlin time');
  });

  it('a branching node is connected on the outcome chosen', async () => {
    const user = userEvent.setup();
    const connected = vi.fn();
    const plan = node('plan', 'condition', {}, 'Is it pro?');
    const mail = node('mail', 'email', {}, 'Welcome');
    render(
      <Panel
        start={plan}
        nodes={[plan, mail, node('call', 'http_request', {}, 'Call')]}
        edges={[{ id: 'e1', source: 'plan', target: 'call', label: 'true' }]}
        onConnect={connected}
      />,
    );
    expect(screen.getByLabelText('Outcome')).toHaveValue('false');
    await user.selectOptions(screen.getByLabelText('Connect to'), 'Welcome');
    expect(connected).toHaveBeenCalledWith('mail', 'false');
  });
});

describe('a connection’s settings', () => {
  it('offers the outcomes of its source, and says so when its label is none of them', async () => {
    const user = userEvent.setup();
    const chosen = vi.fn();
    const removed = vi.fn();
    const nodes = [node('s', 'split', { branches: [{ label: 'A' }, { label: 'B' }] }, 'Half and half'), node('m', 'email', {}, 'Mail')];
    render(<EdgePanel edge={{ id: 'e', source: 's', target: 'm', label: 'C' }} nodes={nodes} onOutcome={chosen} onDelete={removed} />);
    const outcome = screen.getByLabelText('Outcome');
    expect([...outcome.options].map((o) => o.text)).toEqual(['C (not an outcome of this node)', 'A', 'B']);
    await user.selectOptions(outcome, 'B');
    expect(chosen).toHaveBeenCalledWith('B');
    await user.click(screen.getByRole('button', { name: 'Delete connection' }));
    expect(removed).toHaveBeenCalled();
    expect(screen.getByRole('form', { name: 'Connection from Split “Half and half” to Email “Mail”, on C' })).toBeInTheDocument();
  });

  it('out of a node that does not branch, says every run takes it', async () => {
    const nodes = [node('d', 'delay', {}, 'Wait'), node('m', 'email', {}, 'Mail')];
    render(<EdgePanel edge={{ id: 'e', source: 'd', target: 'm' }} nodes={nodes} onOutcome={() => {}} onDelete={() => {}} />);
    await waitFor(() => expect(screen.queryByLabelText('Outcome')).toBeNull());
    expect(screen.getByText(/Every run that leaves “Wait” takes it/)).toBeInTheDocument();
  });
});
