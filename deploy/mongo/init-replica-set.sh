#!/usr/bin/env bash
# Initiates the replica set rs0 of mongo-1..3 (deploy/compose.yaml) once; run again, it only
# waits for a primary. Authenticates as the root user the members were started with.
set -euo pipefail
mongosh --quiet --host mongo-1 -u "$MONGO_ROOT_USER" -p "$MONGO_ROOT_PASSWORD" \
  --authenticationDatabase admin --eval '
try {
  rs.status();
  print("replica set rs0 already initiated");
} catch (e) {
  if (e.codeName !== "NotYetInitialized") throw e;
  rs.initiate({_id: "rs0", members: [
    {_id: 0, host: "mongo-1:27017", priority: 2},
    {_id: 1, host: "mongo-2:27017", priority: 1},
    {_id: 2, host: "mongo-3:27017", priority: 1},
  ]});
  print("replica set rs0 initiated");
}
for (let i = 0; i < 60 && !db.hello().isWritablePrimary && !db.hello().primary; i++) sleep(1000);
if (!db.hello().primary) quit(1);
print("primary: " + db.hello().primary);
'
