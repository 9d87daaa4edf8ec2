// The app's identity, written once. app-identity.json (the repository root) holds the appId: electron-builder.yml
// `extends` it, so the installers carry it, and the app imports it from here. The name users see, the publisher
// and the homepage are package.json's `productName`, `author` and `homepage`, which Electron and electron-builder
// read from there themselves. test/packaging/app-identity.test.ts checks that the two agree.
import identity from '../../app-identity.json'

/**
 * Reverse-DNS id: the macOS bundle id, the Windows AppUserModelID (toasts show only for the id of the Start-menu
 * shortcut, which the NSIS installer gives the appId) and the Linux desktop id.
 */
export const APP_ID: string = identity.appId
