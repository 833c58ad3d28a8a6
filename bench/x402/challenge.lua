-- wrk script for the 402-challenge phase: the same unpaid POST the Node driver sends.
wrk.method = "POST"
wrk.body = '{"recipient":"bench"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
