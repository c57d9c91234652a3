import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Menu, { menuPlace } from '../src/Menu.jsx';

const items = (onSelect) => ['Email', 'Delay', 'Condition'].map((label) => ({ key: label, label, onSelect: () => onSelect(label) }));

describe('a menu of actions', () => {
  it('opens on its button with the first item focused; the arrows move; Escape closes it and returns the focus', async () => {
    const user = userEvent.setup();
    const picked = vi.fn();
    render(<Menu label="Add the next node" buttonText="+" items={items(picked)} />);
    const button = screen.getByRole('button', { name: 'Add the next node' });
    await user.click(button);
    const menu = screen.getByRole('menu', { name: 'Add the next node' });
    expect(menu.parentElement).toBe(document.body);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Email' })).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Delay' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Condition' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(picked).not.toHaveBeenCalled();
  });

  it('closes on a pick and on a click elsewhere', async () => {
    const user = userEvent.setup();
    const picked = vi.fn();
    render(
      <>
        <Menu label="More" buttonText="⋯" items={items(picked)} />
        <p>elsewhere</p>
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delay' }));
    expect(picked).toHaveBeenCalledWith('Delay');
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens upwards when the window has no room below its button, and scrolls within the room it has', () => {
    const viewport = { width: 1024, height: 768 };
    const low = { top: 700, bottom: 722, left: 500, width: 22 };
    expect(menuPlace(low, 400, viewport)).toEqual({ left: 421, bottom: 72, maxHeight: 688 });
    const high = { top: 100, bottom: 122, left: 500, width: 22 };
    expect(menuPlace(high, 400, viewport)).toEqual({ left: 421, top: 126, maxHeight: 634 });
    const nearRight = { top: 100, bottom: 122, left: 1010, width: 22 };
    expect(menuPlace(nearRight, 100, viewport).left).toBe(836);
  });
});
