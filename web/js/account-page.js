// @ts-check
/**
 * The account page: log in, sign up (taking this browser's guest games and event
 * entries along), log out and change the password.
 * @module
 */

import { $, account, postJson } from './api.js';
import { syncTokens } from './account.js';
import { allEvents, allTokens } from './tokens.js';

/**
 * @param {string} id
 * @returns {string}
 */
const value = (id) => /** @type {HTMLInputElement} */ ($(`#${id}`)).value;

/**
 * Runs a form's request, showing its error under the form.
 * @param {string} form
 * @param {string} error
 * @param {() => Promise<void>} action
 */
function onSubmit(form, error, action) {
  $(`#${form}`).addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const err = $(`#${error}`);
    err.hidden = true;
    try {
      await action();
    } catch (e) {
      err.textContent = /** @type {Error} */ (e).message;
      err.hidden = false;
    }
  });
}

/** After logging in: the account's games come to this browser, then its profile. */
async function welcome() {
  const me = await account(true);
  if (me) await syncTokens().catch(() => undefined);
  const back = new URLSearchParams(location.search).get('back');
  location.href = back && back.startsWith('/') && !back.startsWith('//') ? back : `/profile/${encodeURIComponent(me ? me.name : '')}`;
}

async function main() {
  const me = await account();
  $('#guest').hidden = !!me;
  $('#member').hidden = !me;
  if (me) {
    const profile = `/profile/${encodeURIComponent(me.name)}`;
    $('#member-name').textContent = me.name;
    $('#member-name').setAttribute('href', profile);
    $('#member-profile').setAttribute('href', profile);
  }
  onSubmit('login-form', 'login-error', async () => {
    await postJson('/api/login', { name: value('login-name'), password: value('login-password') });
    await welcome();
  });
  onSubmit('signup-form', 'signup-error', async () => {
    if (value('signup-password') !== value('signup-password2')) throw new Error('the two passwords differ');
    await postJson('/api/accounts', {
      name: value('signup-name'),
      password: value('signup-password'),
      // The seats of this browser's guest games, and its entries in events (their
      // device tokens, last so that they are kept within the limit).
      tokens: [...new Set([...allTokens(), ...Object.values(allEvents()).flatMap((e) => (e.player ? [e.player] : []))])].slice(-200),
    });
    await welcome();
  });
  onSubmit('password-form', 'password-error', async () => {
    await postJson('/api/account/password', { old: value('old-password'), new: value('new-password') });
    await account(true);
    /** @type {HTMLFormElement} */ ($('#password-form')).reset();
    $('#password-done').hidden = false;
  });
  $('#logout-btn').addEventListener('click', async () => {
    await postJson('/api/logout', {}).catch(() => undefined);
    location.href = '/';
  });
}

main();
