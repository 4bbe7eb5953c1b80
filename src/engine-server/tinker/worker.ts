// Entry point of the Tinker worker thread (a threads/ ThreadClient, see service.ts).
import { serveThread } from '../../threads/host.ts';
import { TinkerHandler } from './handler.ts';

serveThread(new TinkerHandler(), 'embedded Tinker worker');
