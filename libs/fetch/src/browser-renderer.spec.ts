import { launchFlags } from './browser-renderer';

describe('launchFlags', () => {
  it('keeps the sandbox when the process is not root, and turns WebRTC UDP off', () => {
    const flags = launchFlags({ root: false, proxy: 'http://127.0.0.1:9' });
    expect(flags).not.toContain('--no-sandbox');
    expect(flags).toContain('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
    expect(flags).toContain('--webrtc-ip-handling-policy=disable_non_proxied_udp');
    expect(flags).toContain('--proxy-server=http://127.0.0.1:9');
  });

  it('runs without the sandbox only as root (Chromium refuses it there), WebRTC still off', () => {
    const flags = launchFlags({ root: true });
    expect(flags).toContain('--no-sandbox');
    expect(flags).toContain('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
  });
});
