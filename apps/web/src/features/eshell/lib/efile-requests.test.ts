import { describe, expect, it } from 'vitest';
import { efileSequence } from '@hpc/contracts';
import { EfileRequestGate, REQUEST_GAP_MS } from './efile-requests';

/** The data xterm hands the OSC handler: what follows `ESC ] 7337 ;`, without the BEL. */
const dataOf = (verb: 'open' | 'get', path: string) =>
  efileSequence({ verb, path }).slice('\x1b]7337;'.length, -1);

describe('the request gate of one terminal', () => {
  it('lets one request through, drops the rest until it is answered, then waits the gap', () => {
    let now = 1000;
    const gate = new EfileRequestGate(() => now);
    expect(gate.offer(dataOf('open', '/home/demo'))).toEqual({ verb: 'open', path: '/home/demo' });
    // A loop printing the sequence: nothing more while the prompt is shown.
    for (let i = 0; i < 1000; i++) expect(gate.offer(dataOf('get', `/home/demo/${i}`))).toBeNull();
    gate.settle();
    expect(gate.offer(dataOf('get', '/home/demo/a'))).toBeNull();
    now += REQUEST_GAP_MS - 1;
    expect(gate.offer(dataOf('get', '/home/demo/a'))).toBeNull();
    now += 1;
    expect(gate.offer(dataOf('get', '/home/demo/a'))).toEqual({ verb: 'get', path: '/home/demo/a' });
  });

  it('takes junk as nothing: it neither shows a prompt nor blocks the next real request', () => {
    const gate = new EfileRequestGate(() => 0);
    expect(gate.offer('hpc-efile;rm;2f')).toBeNull();
    expect(gate.offer('https://example.com/')).toBeNull();
    expect(gate.offer(dataOf('open', '/tmp'))).toEqual({ verb: 'open', path: '/tmp' });
  });

  it('settles only a shown prompt (a second settle does not push the gap out)', () => {
    let now = 0;
    const gate = new EfileRequestGate(() => now);
    gate.settle();
    expect(gate.offer(dataOf('open', '/tmp'))).not.toBeNull();
    gate.settle();
    now = REQUEST_GAP_MS;
    gate.settle();
    expect(gate.offer(dataOf('open', '/tmp'))).not.toBeNull();
  });
});
