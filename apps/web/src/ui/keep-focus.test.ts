import { afterEach, describe, expect, it } from 'vitest';
import { keepFocus } from './keep-focus.ts';

/** The mutation observer answers after the change, in a microtask; a timer runs after it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let stop: () => void = () => undefined;
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

function table(rows: string[]) {
  document.body.innerHTML = `
    <main id="main" tabindex="-1">
      <table><tbody>${rows
        .map(
          (name) =>
            `<tr id="${name}"><td><a href="#${name}">${name}</a></td><td><button>Archive ${name}</button></td></tr>`,
        )
        .join('')}</tbody></table>
      <button id="other">Other</button>
    </main>`;
  stop = keepFocus(document.body, () => document.getElementById('main'));
}

const button = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent === name) as HTMLButtonElement;

describe('keepFocus', () => {
  it('gives a button disabled while it works the focus back once it is enabled again', async () => {
    table(['a']);
    const archive = button('Archive a');
    archive.focus();
    // The browser drops the focus of a disabled control to the body (jsdom does not: done here as Chromium does).
    archive.blur();
    archive.disabled = true;
    await settle();
    expect(document.activeElement).toBe(document.body);
    archive.disabled = false;
    await settle();
    expect(document.activeElement).toBe(archive);
  });

  it('leaves the focus where the person put it meanwhile', async () => {
    table(['a']);
    const archive = button('Archive a');
    archive.focus();
    archive.blur();
    archive.disabled = true;
    await settle();
    button('Other').focus();
    archive.disabled = false;
    await settle();
    expect(document.activeElement).toBe(button('Other'));
  });

  it('moves the focus of a removed row to the same control of the row in its place, else to the control after the rows, else to the main region', async () => {
    table(['a', 'b', 'c']);
    button('Archive b').focus();
    document.getElementById('b')!.remove();
    await settle();
    expect(document.activeElement).toBe(button('Archive c'));
    // The last row: the one before takes its place.
    document.getElementById('c')!.remove();
    await settle();
    expect(document.activeElement).toBe(button('Archive a'));
    // The whole table goes with its last row: the control after it.
    document.querySelector('tbody')!.remove();
    await settle();
    expect(document.activeElement).toBe(button('Other'));
    // The page goes: the main region.
    document.getElementById('main')!.replaceChildren();
    await settle();
    expect(document.activeElement).toBe(document.getElementById('main'));
  });

  it('does not take the focus back from a person who clicked beside every control', async () => {
    table(['a', 'b']);
    button('Archive a').focus();
    button('Archive a').blur();
    await settle();
    document.getElementById('a')!.remove();
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});
