// The environment every timed process of the benches runs in: the caller's, without NODE_EXTRA_CA_CERTS. Node reads
// and parses that file at every start (on the session-17 machine a 220 KB bundle took `node -e 0` from 50 to 90 ms): a
// constant unrelated to memlint that would flatter every ratio against `node -e 0` and the floor.
export const benchEnv = { ...process.env };
export const strippedCaCerts = benchEnv.NODE_EXTRA_CA_CERTS !== undefined;
delete benchEnv.NODE_EXTRA_CA_CERTS;
