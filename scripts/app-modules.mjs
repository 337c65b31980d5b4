// The app's WebAssembly modules (D11), named once for the build (scripts/build-app.mjs) and the tests that check
// what each page downloads (tests/e2e).

/** The app's routes (app/src/main.rs) and the module each opens (app/src/pages/split.rs), as `[path pattern,
 * module]`; the launch list (`/`, `/launch`) is in the main module. The build fails when a module it split out has
 * no route here and is not in ON_DEMAND, or a route names a module it did not split out. */
export const ROUTES = [
  ['^/launch/[^/]+/?$', 'token'],
  ['^/score/?$', 'verification'],
  ['^/payouts/?$', 'payouts'],
  ['^/scorer/?$', 'scorer'],
  ['^/duel/?$', 'duels'],
  ['^/duel/[^/]+/?$', 'duels'],
  ['^/calls/?$', 'calls'],
  ['^/verify/?$', 'verification'],
  ['^/network/?$', 'verification'],
];

/** Modules a page fetches when it needs them, never preloaded (`on_demand!`, app/src/split_point.rs): the launch
 * list's score column and 24 h changes, asked for once its rows are in; the launch form, when it is opened; a
 * project's score history, when a page shows it; the burner's signer, when it first signs; following a
 * transaction left pending at a reload. */
export const ON_DEMAND = ['board', 'launch_form', 'history', 'burner', 'follow_restored'];

/** Whether `file` (a name under `wasm-<hash>/`) is an on-demand module's own file. */
export const isOnDemand = (file) => ON_DEMAND.some((m) => file === `split_${m}.wasm`);

/** Whether `file` is a module of shared code (`chunk_<n>.wasm`), fetched with whichever module needs it. */
export const isShared = (file) => /^chunk_\d+\.wasm$/.test(file);
