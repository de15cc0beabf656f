/**
 * The switches every Chromium jobctrl starts gets (the enrichment renderer through Playwright, the
 * apply launcher spawning it itself), kept in one list so the two browsers cannot drift apart.
 *
 * As root on these machines Chromium needs --no-sandbox. The rest keep the browser from calling its
 * vendor: behind the GuardedProxy such calls are answered by the proxy, which on a machine with
 * internet access would let them through (public hosts, web ports), and without one fills the log
 * with refusals. Seen without them, from the directly spawned apply browser: clients2.google.com
 * (network time), update.googleapis.com, accounts.google.com, content-autofill.googleapis.com. With
 * them Chromium 156 still asks update.googleapis.com and accounts.google.com once per launch
 * (apply-address.guard.spec lists what it sees); no switch found for those yet.
 */
export const CHROMIUM_SWITCHES: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-component-extensions-with-background-pages',
  '--disable-client-side-phishing-detection',
  '--disable-domain-reliability',
  '--disable-breakpad',
  '--metrics-recording-only',
  '--no-pings',
  '--disable-field-trial-config',
  '--no-service-autorun',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,DialMediaRouteProvider,Translate,CertificateTransparencyComponentUpdater,NetworkTimeServiceQuerying,OptimizationGuideModelDownloading,OptimizationHintsFetching,InterestFeedContentSuggestions,MediaDrmPreprovisioning',
];
