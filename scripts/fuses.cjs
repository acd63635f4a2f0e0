/* eslint-disable @typescript-eslint/no-require-imports -- electron-builder loads afterPack hooks with require() */
// Release fuses, flipped in the packaged Electron binary after electron-builder packs it
// (afterPack hook). The config is a plain function so it is unit-tested without a build.
const { join } = require('node:path')

/** The fuse settings of a release build (names from @electron/fuses' FuseV1Options). */
function releaseFuses() {
  return {
    RunAsNode: false,
    EnableNodeOptionsEnvironmentVariable: false,
    EnableNodeCliInspectArguments: false,
    EnableEmbeddedAsarIntegrityValidation: true,
    OnlyLoadAppFromAsar: true,
    EnableCookieEncryption: true,
    GrantFileProtocolExtraPrivileges: false,
  }
}

/** The packaged binary's path for a platform (what flipFuses is pointed at). */
function binaryPath(appOutDir, platform, productName) {
  if (platform === 'darwin' || platform === 'mas') return join(appOutDir, `${productName}.app`)
  if (platform === 'win32') return join(appOutDir, `${productName}.exe`)
  return join(appOutDir, productName.toLowerCase())
}

async function afterPack(context) {
  const { flipFuses, FuseVersion, FuseV1Options } = require('@electron/fuses')
  const platform = context.electronPlatformName
  const fuses = Object.fromEntries(
    Object.entries(releaseFuses()).map(([name, on]) => [FuseV1Options[name], on]),
  )
  await flipFuses(binaryPath(context.appOutDir, platform, context.packager.appInfo.productFilename), {
    version: FuseVersion.V1,
    // macOS arm64 binaries must be re-signed after their fuses change.
    resetAdHocDarwinSignature: platform === 'darwin',
    ...fuses,
  })
}

module.exports = afterPack
module.exports.default = afterPack
module.exports.releaseFuses = releaseFuses
module.exports.binaryPath = binaryPath
