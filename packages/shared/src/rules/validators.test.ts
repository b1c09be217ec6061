import { describe, expect, it } from 'vitest';
import { EmailSchema, isValidEmail, isValidUrl, UrlSchema, unwrapMarkdownLink } from './validators.ts';

describe('Email: "local part, @, domain with a dotted suffix of at least 2 letters, or an IP literal"', () => {
  it.each([
    { email: 'jane@example.com', valid: true },
    { email: 'jane.doe+inbox@mail.example.co.uk', valid: true },
    { email: 'a_b-c@sub-domain.example.io', valid: true },
    { email: 'JANE@EXAMPLE.COM', valid: true },
    { email: '"jane doe"@example.com', valid: true },
    { email: 'user@[192.168.0.1]', valid: true },
    { email: 'user@[255.255.255.255]', valid: true },
    { email: '', valid: false },
    { email: 'jane', valid: false },
    { email: 'jane@', valid: false },
    { email: '@example.com', valid: false },
    { email: 'jane@example', valid: false },
    { email: 'jane@example.c', valid: false },
    { email: 'jane@example.c0m', valid: false },
    { email: 'jane@@example.com', valid: false },
    { email: 'jane doe@example.com', valid: false },
    { email: '.jane@example.com', valid: false },
    { email: 'jane.@example.com', valid: false },
    { email: 'jane..doe@example.com', valid: false },
    { email: 'jane@exa_mple.com', valid: false },
    { email: ' jane@example.com', valid: false },
    { email: 'user@[256.1.1.1]', valid: false },
    { email: 'user@[192.168.0]', valid: false },
    { email: 'user@192.168.0.1', valid: false },
  ])('$email is valid: $valid', ({ email, valid }) => {
    expect(isValidEmail(email)).toBe(valid);
  });

  it.each([
    { input: 'jane@example.com', issue: undefined },
    { input: 'jane@example', issue: 'Please enter a valid email address' },
  ])('EmailSchema reports "$issue" for $input', ({ input, issue }) => {
    const result = EmailSchema.safeParse(input);
    expect(result.error?.issues[0]?.message).toBe(issue);
  });
});

describe('URL: "valid if it parses and has a host; a markdown-link form is unwrapped to its URL first"', () => {
  it.each([
    { input: '[Docs](https://example.com/docs)', url: 'https://example.com/docs' },
    { input: '[](https://example.com)', url: 'https://example.com' },
    {
      input: '[Foo](https://en.wikipedia.org/wiki/Foo_(bar))',
      url: 'https://en.wikipedia.org/wiki/Foo_(bar)',
    },
    { input: 'https://example.com', url: 'https://example.com' },
    { input: 'see [Docs](https://example.com)', url: 'see [Docs](https://example.com)' },
    { input: '[a](https://a.com) [b](https://b.com)', url: '[a](https://a.com) [b](https://b.com)' },
  ])('unwraps $input to $url', ({ input, url }) => {
    expect(unwrapMarkdownLink(input)).toBe(url);
  });

  it.each([
    { url: 'https://example.com', valid: true },
    { url: 'http://localhost:3000/inbox?id=1', valid: true },
    { url: 'https://192.168.0.1', valid: true },
    { url: 'https://en.wikipedia.org/wiki/Foo_(bar)', valid: true },
    { url: '[Docs](https://example.com/docs)', valid: true },
    { url: '[Docs](not a url)', valid: false },
    { url: '[Docs](/relative/path)', valid: false },
    { url: 'example.com', valid: false },
    { url: 'https://', valid: false },
    { url: 'mailto:jane@example.com', valid: false },
    { url: 'file:///etc/hosts', valid: false },
    { url: 'javascript:alert(1)', valid: false },
    { url: '', valid: false },
  ])('$url is valid: $valid', ({ url, valid }) => {
    expect(isValidUrl(url)).toBe(valid);
  });

  it.each([
    { input: 'https://example.com', issue: undefined },
    { input: 'example.com', issue: 'Please enter a valid URL, such as https://example.com' },
  ])('UrlSchema reports "$issue" for $input', ({ input, issue }) => {
    const result = UrlSchema.safeParse(input);
    expect(result.error?.issues[0]?.message).toBe(issue);
  });
});
