import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../testing/render-app';
import { TEST_ADMIN } from '../testing/test-admin';
import { SWIPE_DISMISS_PX, TOAST_MS } from './toast-view';
import { MAX_TOASTS } from './toast';
import { TOAST_GAP, TOAST_STACK_CLASS, TOP_BAR_HEIGHT } from './toast-stack';

const timeLeft = (alert: HTMLElement) => Number(within(alert).getByRole('progressbar', { name: 'Time left' }).getAttribute('aria-valuenow'));
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

async function findToast(text: string | RegExp): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = screen.getAllByRole('alert').find((alert) => (typeof text === 'string' ? alert.textContent === text : text.test(alert.textContent ?? '')));
    expect(found).toBeDefined();
  });
  return found as HTMLElement;
}

describe('toasts (SPEC §8 toast settings)', () => {
  it('say what each list loaded: its own name', async () => {
    const { user } = await renderApp({ url: '/category', user: TEST_ADMIN });
    expect(await findToast('Categories')).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    for (const [link, text] of [
      ['Service code', 'Service codes'],
      ['Content', 'Contents'],
      ['Sms', 'Sent messages'],
      ['Users', 'Users'],
    ]) {
      await user.click(within(menu).getByRole('link', { name: link }));
      expect(await findToast(text)).toBeInTheDocument();
    }
  });

  it('show the time left, which stops on hover and while the window is not focused', async () => {
    await renderApp({ url: '/category', user: TEST_ADMIN });
    const alert = await findToast('Categories');
    const first = timeLeft(alert);
    expect(first).toBeLessThanOrEqual(TOAST_MS);
    await pause(300);
    expect(timeLeft(alert)).toBeLessThan(first);

    fireEvent.mouseEnter(alert);
    const hovered = timeLeft(alert);
    await pause(400);
    expect(timeLeft(alert)).toBe(hovered);
    fireEvent.mouseLeave(alert);
    await pause(300);
    expect(timeLeft(alert)).toBeLessThan(hovered);

    act(() => {
      window.dispatchEvent(new Event('blur'));
    });
    const blurred = timeLeft(alert);
    await pause(400);
    expect(timeLeft(alert)).toBe(blurred);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await pause(300);
    expect(timeLeft(alert)).toBeLessThan(blurred);
  });

  it('close on a click and on a sideways swipe, but not on a short drag', async () => {
    const { user } = await renderApp({ url: '/category', user: TEST_ADMIN });
    await user.click(await findToast('Categories'));
    await waitFor(() => expect(screen.queryByText('Categories', { selector: '#notistack-snackbar' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('link', { name: 'Service code' }));
    const alert = await findToast('Service codes');
    fireEvent.pointerDown(alert, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(alert, { clientX: 120, pointerId: 1 });
    fireEvent.pointerUp(alert, { clientX: 120, pointerId: 1 });
    fireEvent.click(alert);
    await pause(300);
    expect(alert).toBeInTheDocument(); // a short drag springs back; its end is not a click

    fireEvent.pointerDown(alert, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(alert, { clientX: 100 + SWIPE_DISMISS_PX + 10, pointerId: 1 });
    fireEvent.pointerUp(alert, { clientX: 100 + SWIPE_DISMISS_PX + 10, pointerId: 1 });
    await waitFor(() => expect(screen.queryByText('Service codes', { selector: '#notistack-snackbar' })).not.toBeInTheDocument());
  });

  it('stand below the top bar at the right, newest below the older ones, and close by themselves after 5000 ms', async () => {
    const { user } = await renderApp({ url: '/category', user: TEST_ADMIN });
    const older = await findToast('Categories');
    await user.click(screen.getByRole('link', { name: 'Service code' }));
    const newer = await findToast('Service codes');
    expect(older.compareDocumentPosition(newer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const stack = older.closest(`.${TOAST_STACK_CLASS}`) as HTMLElement;
    expect(stack).toContainElement(newer);
    expect(getComputedStyle(stack)).toMatchObject({ position: 'fixed', top: `${TOP_BAR_HEIGHT + TOAST_GAP}px`, right: '16px' });
    await waitFor(() => expect(older).not.toBeInTheDocument(), { timeout: TOAST_MS + 3000 });
  });

  it("replace a list's toast on screen with its next one, and show at most two", async () => {
    const { user } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    await findToast(/^Transactions for/);
    // The window out of focus holds every toast's time: on a loaded machine two Refresh rounds outlast a
    // toast's 5 s, and a toast that closed by itself would pass for one that was replaced.
    act(() => {
      window.dispatchEvent(new Event('blur'));
    });
    const refresh = () => screen.getByRole('button', { name: 'Refresh' });
    for (let times = 0; times < 2; times += 1) {
      // Disabled while its load is on its way; then the list's toast comes again.
      await waitFor(() => expect(getComputedStyle(refresh()).pointerEvents).not.toBe('none'));
      await user.click(refresh());
      await waitFor(() => expect(getComputedStyle(refresh()).pointerEvents).not.toBe('none'));
    }
    await pause(600);
    await waitFor(() => expect(screen.getAllByRole('alert').filter((alert) => alert.textContent?.startsWith('Transactions for'))).toHaveLength(1));
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    for (const link of ['Content', 'Sms', 'Failed transactions']) await user.click(within(menu).getByRole('link', { name: link }));
    await findToast(/^Failed transactions for/);
    await waitFor(() => expect(screen.getAllByRole('alert').length).toBeLessThanOrEqual(MAX_TOASTS.wide));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
  });
});
