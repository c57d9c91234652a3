import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeTypes } from '../src/nodeTypes.js';
import { nodeSummary, windowText } from '../src/nodeSummary.js';
import { NODE_TYPES_ANSWER } from './fixtures.js';
import { ago, duration } from '../src/time.js';

beforeAll(() => useNodeTypes(NODE_TYPES_ANSWER));

describe('cards say what a node does', () => {
  it('a duration in days and minutes', () => {
    expect(nodeSummary('delay', { delayDays: 2, delayMinutes: 30 })).toBe('Wait 2 days 30 minutes');
    expect(nodeSummary('delay', { delayMinutes: 1 })).toBe('Wait 1 minute');
  });

  it('a send window with its time zone beside it', () => {
    expect(windowText({ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', timezone: 'contact' })).toBe(
      'Mon–Fri 09:00–17:00, the contact’s time zone',
    );
    expect(windowText({ days: [1, 3, 5], from: '08:30', to: '12:00', timezone: 'Europe/Berlin' })).toBe(
      'Mon, Wed, Fri 08:30–12:00, Europe/Berlin time',
    );
    expect(windowText({ days: [6, 7] })).toBe('Sat, Sun, the contact’s time zone');
    expect(windowText({})).toBe('');
  });

  it('an object of short values reads as its entries, not as [object Object]', () => {
    expect(nodeSummary('split', { branches: [{ label: 'A' }] })).toBe('');
    expect(nodeSummary('unknown_type', { window: { from: '09:00', to: '17:00' } })).toBe('');
  });
});

describe('times in lists', () => {
  it('how long a run took, in its two largest units', () => {
    expect(duration(850)).toBe('850 ms');
    expect(duration(12_400)).toBe('12 s');
    expect(duration(185_000)).toBe('3 min 5 s');
    expect(duration(2 * 3600_000 + 4 * 60_000)).toBe('2 h 4 min');
    expect(duration(-1)).toBe('');
  });

  it('how long ago', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(ago('2026-01-10T11:59:50Z', now)).toBe('just now');
    expect(ago('2026-01-10T11:55:00Z', now)).toBe('5 min ago');
    expect(ago('2026-01-09T12:00:00Z', now)).toBe('1 day ago');
  });
});

describe('a template on a card', () => {
  it('is named, not shown by its id', () => {
    expect(nodeSummary('email', { templateId: 't-1' }, { templates: { 't-1': 'Welcome pack' } })).toBe('template “Welcome pack”');
    expect(nodeSummary('email', { subject: 'Hi', templateId: 't-2' }, { templates: {} })).toBe('Hi · a template');
  });
});
