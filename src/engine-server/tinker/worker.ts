// Entry point of the Tinker worker thread (a util/thread ThreadClient, see service.ts).
import { serveThread } from '../../util/thread/host.ts';
import { TinkerHandler } from './handler.ts';

serveThread(new TinkerHandler(), 'embedded Tinker worker');
