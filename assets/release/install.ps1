# Installs agentry from a release archive on Windows:
#   powershell -ExecutionPolicy Bypass -c "irm https://github.com/agentry-dev/agentry/releases/download/v0.1.0/install.ps1 | iex"
# Downloads agentry-VERSION-x86_64-pc-windows-msvc.zip, checks its SHA-256 against the
# release's .sha256, and puts agentry.exe in AGENTRY_INSTALL_DIR
# (%LOCALAPPDATA%\agentry\bin). AGENTRY_VERSION and AGENTRY_BASE_URL (https:// or
# file://) as in install.sh. Exit codes: 0 installed, 1 failed, 3 no archive for
# this machine.
$ErrorActionPreference = 'Stop'

$version = if ($env:AGENTRY_VERSION) { $env:AGENTRY_VERSION.TrimStart('v') } else { '0.1.0' }
$base = if ($env:AGENTRY_BASE_URL) { $env:AGENTRY_BASE_URL.TrimEnd('/') } else { "https://github.com/agentry-dev/agentry/releases/download/v$version" }
$dir = if ($env:AGENTRY_INSTALL_DIR) { $env:AGENTRY_INSTALL_DIR } else { Join-Path $env:LOCALAPPDATA 'agentry\bin' }

function Say($text) { [Console]::Error.WriteLine("agentry install: $text") }

$exitCode = $null
$arch = $env:PROCESSOR_ARCHITECTURE
if ($arch -ne 'AMD64') {
    Say "no release archive for Windows $arch; releases exist for x86_64 Windows, and x86_64 and aarch64 Linux and macOS. Build it instead: cargo install --locked agentry"
    $exitCode = 3
}
$target = 'x86_64-pc-windows-msvc'
$archive = "agentry-$version-$target.zip"

# Copies $url to $file; 3 when the release has no such file.
function Fetch($url, $file) {
    if ($url.StartsWith('file://')) {
        $local = ([Uri]$url).LocalPath
        if (-not (Test-Path -LiteralPath $local -PathType Leaf)) { return 3 }
        Copy-Item -LiteralPath $local -Destination $file
        return 0
    }
    try {
        Invoke-WebRequest -UseBasicParsing -Uri $url -OutFile $file
        return 0
    } catch {
        if ($_.Exception.Response -and [int]$_.Exception.Response.StatusCode -eq 404) { return 3 }
        Say "$url`: $($_.Exception.Message)"
        return 1
    }
}

# Returns the exit code; `exit` itself would close the shell of `irm … | iex`.
function Install-Agentry {
    $tmp = Join-Path ([IO.Path]::GetTempPath()) ("agentry-" + [Guid]::NewGuid())
    New-Item -ItemType Directory -Path $tmp | Out-Null
    try {
        $status = Fetch "$base/$archive" (Join-Path $tmp $archive)
        if ($status -ne 0) {
            if ($status -eq 3) { Say "$base has no $archive" }
            return $status
        }
        if ((Fetch "$base/$archive.sha256" (Join-Path $tmp "$archive.sha256")) -ne 0) {
            Say "$base has $archive but not its .sha256: refusing to install an unchecked binary"
            return 1
        }
        $want = ((Get-Content -LiteralPath (Join-Path $tmp "$archive.sha256") -Raw).Trim() -split '\s+')[0].ToLowerInvariant()
        $got = (Get-FileHash -Algorithm SHA256 -LiteralPath (Join-Path $tmp $archive)).Hash.ToLowerInvariant()
        if (-not $want -or $want -ne $got) {
            Say "checksum mismatch for $archive`: the release says $want, the download is $got; not installed"
            return 1
        }
        Expand-Archive -LiteralPath (Join-Path $tmp $archive) -DestinationPath $tmp -Force
        New-Item -ItemType Directory -Force -Path $dir | Out-Null
        Copy-Item -LiteralPath (Join-Path $tmp "agentry-$version-$target\agentry.exe") -Destination (Join-Path $dir 'agentry.exe') -Force
        Say "installed agentry $version ($target) in $dir\agentry.exe"
        if (-not (($env:PATH -split ';') -contains $dir)) {
            Say "$dir is not on PATH: add it, or run $dir\agentry.exe"
        }
    } finally {
        Remove-Item -Recurse -Force -LiteralPath $tmp -ErrorAction SilentlyContinue
    }
    return 0
}

if ($null -eq $exitCode) { $exitCode = Install-Agentry }
# Run as a file (powershell -File install.ps1), the exit code tells the caller.
if ($PSCommandPath) { exit $exitCode }
