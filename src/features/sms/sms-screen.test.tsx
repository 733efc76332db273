import { screen, within } from '@testing-library/react';
import { fieldLabel, fillField, sendSmsViaApi } from '../../testing/catalogue-fixtures';
import { renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

// Generous: these walk whole forms against the real API, and CI runs many suites at once.

/** How long a form or a save's answer may take to show before the test gives up (only a failing test waits it out). */
const slow = { timeout: 20_000 };

const PHONE_MESSAGE = 'Phone number must be in this format (256750461xxx)';

describe('Sms screen', () => {
  it('counts characters and parts, shows the phone error on the phone field, sends and lists the message', async () => {
    const { user } = await renderApp({ url: '/sms', user: TEST_ADMIN });
    const form = await screen.findByRole('form', { name: 'New message' }, slow);
    const messageInput = within(form).getByLabelText(fieldLabel('Message'));
    await fillField(messageInput, 'Hello');
    expect(within(form).getByText('5/160')).toBeInTheDocument();
    expect(within(form).getByText('1 SMS')).toBeInTheDocument();
    const normal = getComputedStyle(within(form).getByText('5/160')).color;
    await fillField(messageInput, 'é'.repeat(10) + 'ж'.repeat(90));
    expect(within(form).getByText('2 SMS (Unicode)')).toBeInTheDocument();
    // Past 160, which the form refuses, the counter turns to the error colour and the parts go.
    await fillField(messageInput, 'a'.repeat(170));
    const over = within(form).getByText('170/160');
    expect(getComputedStyle(over).color).not.toBe(normal);
    expect(getComputedStyle(over).color).toBe('rgb(211, 47, 47)');
    expect(within(form).queryByText(/\d SMS/)).not.toBeInTheDocument();

    const phone = within(form).getByLabelText(fieldLabel('Phone number'));
    await fillField(phone, '0750461234');
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await within(form).findByText(PHONE_MESSAGE)).toBeInTheDocument();
    expect(phone).toHaveAccessibleDescription(PHONE_MESSAGE);
    expect(within(form).getByText('Please select the category level')).toBeInTheDocument();

    const message = uniqueName('Your ticket');
    await fillField(phone, '256750461234');
    await fillField(messageInput, message);
    await user.click(within(form).getByRole('combobox', { name: /Category level/ }));
    expect(screen.queryByRole('option', { name: 'Super' })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Corporate' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'VIP' }));
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Successfully sent the message!', {}, slow)).toBeInTheDocument();

    const row = (await screen.findByText(message, {}, slow)).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('256750461234')).toBeInTheDocument();
    expect(within(row).getByText('VIP')).toBeInTheDocument();
    expect(within(row).getByText('sent')).toBeInTheDocument();
    expect(within(row).getByText(TEST_ADMIN.userName)).toBeInTheDocument();
  });

  it('reloads the history when the All tab is clicked', async () => {
    const { user } = await renderApp({ url: '/sms', user: TEST_ADMIN });
    await screen.findByRole('form', { name: 'New message' }, slow);
    const message = uniqueName('Sent elsewhere');
    await sendSmsViaApi(message);
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'All' }));
    expect(await screen.findByText(message, {}, slow)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New message' })).not.toBeInTheDocument();
  });
});
