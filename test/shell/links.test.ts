import { beforeEach, describe, expect, it, vi } from 'vitest'

const opened = vi.hoisted(() => [] as string[])
vi.mock('electron', () => ({
  shell: {
    openExternal: async (url: string) => {
      opened.push(url)
    },
  },
}))

import { MAX_EXTERNAL_URL_LENGTH, openExternalLink, vetExternalUrl } from '../../src/main/links'

describe('vetExternalUrl', () => {
  it('accepts plain https links to vetted hosts', () => {
    expect(vetExternalUrl('https://github.com')).toBe('https://github.com/')
    expect(vetExternalUrl('https://github.com/owner/repo/releases?tab=x#notes')).toBe(
      'https://github.com/owner/repo/releases?tab=x#notes',
    )
    expect(vetExternalUrl('https://docs.github.com/en')).toBe('https://docs.github.com/en')
  })

  const refused: [string, unknown][] = [
    ['userinfo trick', 'https://github.com@evil.com/'],
    ['userinfo trick without slash', 'https://github.com@evil.com'],
    ['credentials', 'https://user:pass@github.com/'],
    ['user only', 'https://user@github.com/'],
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: disguised', 'JaVaScRiPt:alert(document.domain)//https://github.com'],
    ['file:', 'file:///etc/passwd'],
    ['http:', 'http://github.com/'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['percent-encoded host', 'https://git%68ub.com/'],
    ['percent-encoded host (spec example)', 'https://ex%61mple.com'],
    ['IDN homograph (Cyrillic i)', 'https://g\u0456thub.com/'],
    ['IDN homograph as punycode', 'https://xn--gthub-n4a.com/'],
    ['fullwidth letters', 'https://\uff47ithub.com/'],
    ['uppercase host', 'https://GitHub.com/'],
    ['look-alike suffix', 'https://github.com.evil.com/'],
    ['look-alike prefix', 'https://evilgithub.com/'],
    ['subdomain not on the list', 'https://gist.github.com/'],
    ['trailing dot', 'https://github.com./'],
    ['explicit port', 'https://github.com:8443/'],
    ['default port spelled out', 'https://github.com:443/'],
    ['backslash confusion', 'https://evil.com\\@github.com/'],
    ['leading whitespace', ' https://github.com/'],
    ['embedded newline', 'https://github.com/\nfoo'],
    ['tab in host', 'https://git\thub.com/'],
    ['protocol-relative', '//github.com/'],
    ['no scheme', 'github.com'],
    ['IP literal', 'https://140.82.112.3/'],
    ['IPv6 literal', 'https://[::1]/'],
    ['empty', ''],
    ['not a string', { href: 'https://github.com/' }],
    ['undefined', undefined],
    ['very long', `https://github.com/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH)}`],
  ]
  for (const [name, input] of refused) {
    it(`refuses ${name}`, () => {
      expect(vetExternalUrl(input)).toBeNull()
    })
  }

  it('accepts a long URL right under the limit and refuses one over it', () => {
    const base = 'https://github.com/'
    const under = base + 'a'.repeat(MAX_EXTERNAL_URL_LENGTH - base.length)
    expect(vetExternalUrl(under)).toBe(under)
    expect(vetExternalUrl(under + 'a')).toBeNull()
  })

  it('honours a custom host list exactly', () => {
    expect(vetExternalUrl('https://example.com/x', ['example.com'])).toBe('https://example.com/x')
    expect(vetExternalUrl('https://github.com/', ['example.com'])).toBeNull()
  })
})

describe('openExternalLink', () => {
  beforeEach(() => {
    opened.length = 0
  })

  it('hands only vetted URLs to the OS', async () => {
    expect(await openExternalLink('https://github.com/x')).toBe(true)
    expect(await openExternalLink('https://github.com@evil.com')).toBe(false)
    expect(await openExternalLink('file:///etc/passwd')).toBe(false)
    expect(opened).toEqual(['https://github.com/x'])
  })
})
