import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

/** The menu's room: it opens below its button, or above when the window has no room below. */
export function menuPlace(button, menuHeight, viewport = { width: window.innerWidth, height: window.innerHeight }) {
  const gap = 4;
  const below = viewport.height - button.bottom - gap;
  const above = button.top - gap;
  const up = below < menuHeight && above > below;
  const room = Math.max(120, (up ? above : below) - 8);
  const left = Math.min(Math.max(8, button.left + button.width / 2 - 90), viewport.width - 188);
  return up
    ? { left, bottom: viewport.height - button.top + gap, maxHeight: room }
    : { left, top: button.bottom + gap, maxHeight: room };
}

/**
 * A button that opens a menu of actions: [{key, label, onSelect, disabled, title, data}]. The menu
 * is drawn over the page (never clipped by what holds the button), opens upwards near the bottom
 * of the window, scrolls when long, and closes on Escape (the focus back on its button), on a
 * click elsewhere, on a scroll of the canvas and on a pick; the arrow keys move through it.
 */
export default function Menu({ label, title, buttonText, buttonClass, disabled, items, className, menuData = {} }) {
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState(null);
  const button = useRef(null);
  const menu = useRef(null);

  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    setPlace(menuPlace(button.current.getBoundingClientRect(), menu.current.scrollHeight));
  }, [open]);
  // once placed (a hidden menu takes no focus), its first entry has the focus
  useEffect(() => {
    if (open && place) menu.current?.querySelector('[role=menuitem]:not(:disabled)')?.focus();
  }, [open, place]);

  useEffect(() => {
    if (!open) return undefined;
    const away = (e) => {
      if (!menu.current?.contains(e.target) && !button.current?.contains(e.target)) setOpen(false);
    };
    // the canvas moved or zoomed, the window changed: the menu would float away from its button
    const moved = () => setOpen(false);
    // Escape closes it wherever the focus is
    const escape = (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', escape);
    document.addEventListener('pointerdown', away, true);
    document.addEventListener('wheel', moved, true);
    window.addEventListener('resize', moved);
    return () => {
      document.removeEventListener('keydown', escape);
      document.removeEventListener('pointerdown', away, true);
      document.removeEventListener('wheel', moved, true);
      window.removeEventListener('resize', moved);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const keys = (e) => {
    const all = [...menu.current.querySelectorAll('[role=menuitem]:not(:disabled)')];
    const at = all.indexOf(document.activeElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(at + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      all[e.key === 'Home' ? 0 : all.length - 1]?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };
  return (
    <span className={className}>
      <button
        ref={button}
        type="button"
        className={buttonClass}
        aria-label={label}
        title={title}
        disabled={disabled}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          setPlace(null);
          setOpen(!open);
        }}
      >
        {buttonText}
      </button>
      {open &&
        createPortal(
          <div
            ref={menu}
            className="menu"
            role="menu"
            aria-label={label}
            {...menuData}
            style={place ? { ...place, visibility: 'visible' } : { top: 0, left: 0, visibility: 'hidden' }}
            onKeyDown={keys}
          >
            {items.map((item) => (
              <button
                key={item.key}
                type="button"
                role="menuitem"
                disabled={item.disabled}
                title={item.title}
                {...(item.data || {})}
                onClick={(e) => {
                  e.stopPropagation();
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            ))}
          </div>,
          document.body,
        )}
    </span>
  );
}
