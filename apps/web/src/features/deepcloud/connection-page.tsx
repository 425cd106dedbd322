import { CloudConnectionView } from './connection-view.tsx';

/** deepcloud/connection/{uuid}: the account's cloud connection page for one connection (`uuid` from the route). */
export default function ConnectionPage({ uuid }: { uuid?: string }) {
  return <CloudConnectionView uuid={uuid} />;
}
