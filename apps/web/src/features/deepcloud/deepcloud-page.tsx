import { CloudConnectionView } from './connection-view.tsx';

/** deepcloud: the account's cloud connection, whichever it is now. */
export default function DeepcloudPage() {
  return <CloudConnectionView />;
}
