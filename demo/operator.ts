/**
 * The operator page's entry: the approval inbox on the runtime that serves
 * this page, signed in with the admin token from the address's fragment
 * (`/operator.html#token=...`, as `npm start` prints it). The fragment never
 * reaches a server; the page moves the token into this tab's session storage
 * and clears it from the address bar, so it does not linger in the history
 * or on a shared screen.
 *
 * @module
 */
import { mountApprovalInbox, tokenFromFragment } from "./approval_inbox.ts";

const KEY = "tether:operator-token";
let token = tokenFromFragment(location.hash);
if (token) {
  sessionStorage.setItem(KEY, token);
  history.replaceState(null, "", location.pathname + location.search);
} else token = sessionStorage.getItem(KEY) ?? "";

const theme = new URLSearchParams(location.search).get("theme");
if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;

const inbox = mountApprovalInbox(document.querySelector<HTMLElement>("#inbox")!, {
  runtimeUrl: location.origin,
  token,
});
Object.assign(globalThis, { inbox });
