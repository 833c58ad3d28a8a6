{{/* Chart name, truncated to the 63 characters of a DNS label. */}}
{{- define "agentpay.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-qualified prefix of every object name. */}}
{{- define "agentpay.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's objects (Deployment, Service, ConfigMap, HPA, PDB). Call with (dict "root" $ "name" "mandate-service"). */}}
{{- define "agentpay.componentName" -}}
{{- printf "%s-%s" (include "agentpay.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "agentpay.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "agentpay.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: agentpay
{{- end -}}

{{/* Selector labels of one service. Call with (dict "root" $ "name" "mandate-service"). */}}
{{- define "agentpay.selectorLabels" -}}
app.kubernetes.io/name: {{ include "agentpay.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "agentpay.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "agentpay.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* One service's effective settings: the service block merged over .Values.defaults, validated. Returns YAML. */}}
{{- define "agentpay.serviceConfig" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $svc := deepCopy .svc -}}
{{- $where := .svc.valuesPath | default (printf "services.%s" $name) -}}
{{- $cfg := mergeOverwrite (deepCopy $root.Values.defaults) $svc -}}
{{- if hasKey $svc "singleton" -}}
{{- fail (printf "%s.singleton is gone: every service runs several instances (anchor-service and settlement-watcher fence their work with database leases); remove it" $where) -}}
{{- end -}}
{{- if and (not $cfg.autoscaling.enabled) (lt (int $cfg.replicas) 2) -}}
{{- fail (printf "%s.replicas must be at least 2 (no single point of failure), got %v" $where $cfg.replicas) -}}
{{- end -}}
{{- if not $cfg.database -}}
{{- fail (printf "%s.database is required" $where) -}}
{{- end -}}
{{- range $k, $v := ($cfg.env | default dict) -}}
{{- if eq (toString $v) "" -}}{{- continue -}}{{- end -}}
{{- if regexMatch "(PASSWORD|SECRET|TOKEN|PRIVATE|_KEY$|AUTH|JAAS)" $k -}}
{{- fail (printf "%s.env.%s looks like a secret: move it to secretEnv (a reference to an existing Secret)" $where $k) -}}
{{- end -}}
{{- if hasKey ($cfg.secretEnv | default dict) $k -}}
{{- fail (printf "%s: %s is both in env and secretEnv" $where $k) -}}
{{- end -}}
{{- end -}}
{{- range $k, $v := ($root.Values.global.env | default dict) -}}
{{- if eq (toString $v) "" -}}{{- continue -}}{{- end -}}
{{- if regexMatch "(PASSWORD|SECRET|TOKEN|PRIVATE|_KEY$|AUTH|JAAS)" $k -}}
{{- fail (printf "global.env.%s looks like a secret: use a service's secretEnv" $k) -}}
{{- end -}}
{{- end -}}
{{- if or (hasKey ($cfg.env | default dict) "ANCHOR_CHAINS") (hasKey ($cfg.secretEnv | default dict) "ANCHOR_CHAINS") (hasKey ($root.Values.global.env | default dict) "ANCHOR_CHAINS") -}}
{{- fail (printf "%s: ANCHOR_CHAINS is set by the chart (services.anchor-service.env.ANCHOR_CHAIN_ID, then anchorChains[].chainId); remove it from env" $where) -}}
{{- end -}}
{{- range $k, $ref := ($cfg.secretEnv | default dict) -}}
{{- if or (not (kindIs "map" $ref)) (not $ref.secret) (not $ref.key) -}}
{{- fail (printf "%s.secretEnv.%s must be {secret: <existing Secret>, key: <key>}, never a literal value" $where $k) -}}
{{- end -}}
{{- end -}}
{{- toYaml $cfg -}}
{{- end -}}

{{/* Image reference of one service. Call with (dict "root" $ "name" ... "cfg" ...). */}}
{{- define "agentpay.image" -}}
{{- $img := .root.Values.image -}}
{{- $own := .cfg.image | default dict -}}
{{- $repo := default (printf "%s/%s%s" $img.registry $img.repositoryPrefix .name) $own.repository -}}
{{- $tag := default (default .root.Chart.AppVersion $img.tag) $own.tag -}}
{{- if eq $img.flavor "native" -}}{{- $tag = printf "%s%s" $tag $img.nativeTagSuffix -}}{{- end -}}
{{- printf "%s:%s" $repo $tag -}}
{{- end -}}

{{- define "agentpay.kafkaBootstrap" -}}
{{- default (printf "%s-kafka-bootstrap:9092" .Values.kafka.clusterName) .Values.kafka.bootstrapServers -}}
{{- end -}}

{{- define "agentpay.dbHost" -}}
{{- if eq .Values.postgresql.mode "cnpg" -}}
{{- printf "%s-rw" .Values.postgresql.cnpg.clusterName -}}
{{- else if eq .Values.postgresql.mode "external" -}}
{{- required "postgresql.external.host is required" .Values.postgresql.external.host -}}
{{- else -}}
{{- fail (printf "postgresql.mode must be external or cnpg, got %q" .Values.postgresql.mode) -}}
{{- end -}}
{{- end -}}

{{- define "agentpay.dbPort" -}}
{{- if eq .Values.postgresql.mode "cnpg" -}}5432{{- else -}}{{ .Values.postgresql.external.port }}{{- end -}}
{{- end -}}

{{/* Name of the Secret holding one database's username and password. */}}
{{/* A database name in Kubernetes object names: "_" (allowed in a database, e.g. anchor_base) becomes "-". */}}
{{- define "agentpay.dbSecret" -}}
{{- printf "%s%s-db" .root.Values.postgresql.credentialsSecretPrefix (replace "_" "-" (toString .database)) -}}
{{- end -}}

{{/*
The workloads the chart renders (one Deployment, Service, ConfigMap, PDB, HPA each): name -> service block. Every
enabled services.<name>, plus one anchor-service per anchorChains item, named anchor-service-<item.name>: the
anchor-service block (replicas, resources, autoscaling off, probes, non-chain env) with that chain's env, signer
Secret and database in place of the primary's. The item's block carries app (the image and container: anchor-service),
anchorChain (its chain id) and valuesPath (for error messages). Returns YAML.
*/}}
{{- define "agentpay.workloads" -}}
{{- $out := dict -}}
{{- $dbs := dict -}}
{{- range $name, $svc := .Values.services -}}
{{- if $svc.enabled -}}
{{- $_ := set $out $name (deepCopy $svc) -}}
{{- $_ := set $dbs (toString $svc.database) (printf "services.%s" $name) -}}
{{- end -}}
{{- end -}}
{{- $chains := .Values.anchorChains | default list -}}
{{- if $chains -}}
{{- $anchor := index .Values.services "anchor-service" | default dict -}}
{{- if not $anchor.enabled -}}
{{- fail "anchorChains: services.anchor-service must be enabled (it anchors on the primary chain)" -}}
{{- end -}}
{{- $ids := dict (toString (($anchor.env | default dict).ANCHOR_CHAIN_ID | default "")) "services.anchor-service.env.ANCHOR_CHAIN_ID" -}}
{{- $chainKeys := list "ANCHOR_RPC_URL" "ANCHOR_CHAIN_ID" "ANCHOR_CONTRACT_ADDRESS" "ANCHOR_EXPLORER_URL" "ANCHOR_CONFIRMATIONS" "ANCHOR_CONSUMER_GROUP" "ANCHOR_SIGNER_KEY" "ANCHOR_NEXT_SIGNER_KEY" -}}
{{- range $i, $c := $chains -}}
{{- $where := printf "anchorChains[%d]" $i -}}
{{- if not (kindIs "map" $c) -}}
{{- fail (printf "%s must be a map {name, chainId, rpcUrl or rpcSecret, contractAddress, signerSecret, ...}" $where) -}}
{{- end -}}
{{- $cname := toString ($c.name | default "") -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" $cname) -}}
{{- fail (printf "%s.name must be a lowercase DNS label (e.g. base), got %q" $where $cname) -}}
{{- end -}}
{{- $where = printf "anchorChains[%s]" $cname -}}
{{- $wname := printf "anchor-service-%s" $cname -}}
{{- if hasKey $out $wname -}}
{{- fail (printf "%s: a workload named %s already exists (anchorChains names must be distinct)" $where $wname) -}}
{{- end -}}
{{- $chainId := toString ($c.chainId | default "") -}}
{{- if not (regexMatch "^[0-9]+$" $chainId) -}}
{{- fail (printf "%s.chainId must be a decimal EVM chain id (e.g. \"8453\"), got %q" $where $chainId) -}}
{{- end -}}
{{- if hasKey $ids $chainId -}}
{{- fail (printf "%s.chainId %s is already anchored by %s" $where $chainId (index $ids $chainId)) -}}
{{- end -}}
{{- $_ := set $ids $chainId $where -}}
{{- $db := toString ($c.database | default (printf "anchor_%s" (replace "-" "_" $cname))) -}}
{{- if not (regexMatch "^[a-z][a-z0-9_]*$" $db) -}}
{{- fail (printf "%s.database must be a lowercase PostgreSQL name (letters, digits, _), got %q" $where $db) -}}
{{- end -}}
{{- if hasKey $dbs $db -}}
{{- fail (printf "%s.database %s is already the database of %s: every anchor chain has its own" $where $db (index $dbs $db)) -}}
{{- end -}}
{{- $_ := set $dbs $db $where -}}
{{- if and $c.rpcUrl $c.rpcSecret -}}
{{- fail (printf "%s: give rpcUrl or rpcSecret, not both" $where) -}}
{{- end -}}
{{- if not (or $c.rpcUrl $c.rpcSecret) -}}
{{- fail (printf "%s: rpcUrl (plain) or rpcSecret {secret, key} (a URL carrying a credential) is required" $where) -}}
{{- end -}}
{{- if not $c.contractAddress -}}
{{- fail (printf "%s.contractAddress is required: the MandateAnchor deployed on chain %s with this chain's signer" $where $chainId) -}}
{{- end -}}
{{- $env := dict -}}
{{- range $k, $v := ($anchor.env | default dict) -}}
{{- if not (has $k $chainKeys) -}}{{- $_ := set $env $k $v -}}{{- end -}}
{{- end -}}
{{- $_ := set $env "ANCHOR_CHAIN_ID" $chainId -}}
{{- $_ := set $env "ANCHOR_CONSUMER_GROUP" (printf "anchor-service-%s" $chainId) -}}
{{- $_ := set $env "ANCHOR_CONTRACT_ADDRESS" (toString $c.contractAddress) -}}
{{- with $c.rpcUrl -}}{{- $_ := set $env "ANCHOR_RPC_URL" (toString .) -}}{{- end -}}
{{- with $c.explorerUrl -}}{{- $_ := set $env "ANCHOR_EXPLORER_URL" (toString .) -}}{{- end -}}
{{- if not (kindIs "invalid" $c.confirmations) -}}{{- $_ := set $env "ANCHOR_CONFIRMATIONS" (toString $c.confirmations) -}}{{- end -}}
{{- $secretEnv := dict -}}
{{- range $k, $v := ($anchor.secretEnv | default dict) -}}
{{- if not (has $k $chainKeys) -}}{{- $_ := set $secretEnv $k $v -}}{{- end -}}
{{- end -}}
{{- $signer := $c.signerSecret | default dict -}}
{{- if or (not (kindIs "map" $signer)) (not $signer.secret) (not $signer.key) -}}
{{- fail (printf "%s.signerSecret must be {secret: <existing Secret>, key: <key>}: this chain's anchor signer" $where) -}}
{{- end -}}
{{- $_ := set $secretEnv "ANCHOR_SIGNER_KEY" (dict "secret" $signer.secret "key" $signer.key) -}}
{{- with $c.nextSignerSecret -}}
{{- $_ := set $secretEnv "ANCHOR_NEXT_SIGNER_KEY" (dict "secret" .secret "key" .key "optional" (ternary .optional true (hasKey . "optional"))) -}}
{{- end -}}
{{- with $c.rpcSecret -}}
{{- $_ := set $secretEnv "ANCHOR_RPC_URL" . -}}
{{- end -}}
{{- $svc := omit (deepCopy $anchor) "env" "secretEnv" "database" -}}
{{- range $k := list "replicas" "resources" "podAnnotations" "nodeSelector" "tolerations" "affinity" -}}
{{- if hasKey $c $k -}}{{- $_ := set $svc $k (deepCopy (index $c $k)) -}}{{- end -}}
{{- end -}}
{{- $_ := set $svc "env" (mergeOverwrite $env (deepCopy ($c.env | default dict))) -}}
{{- $_ := set $svc "secretEnv" (mergeOverwrite $secretEnv (deepCopy ($c.secretEnv | default dict))) -}}
{{- $_ := set $svc "database" $db -}}
{{- $_ := set $svc "app" "anchor-service" -}}
{{- $_ := set $svc "anchorChain" $chainId -}}
{{- $_ := set $svc "valuesPath" $where -}}
{{- $_ := set $out $wname $svc -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* ANCHOR_CHAINS, given to every service: the chain ids transitions are anchored on, primary first. */}}
{{- define "agentpay.anchorChains" -}}
{{- $ids := list -}}
{{- with (index .Values.services "anchor-service" | default dict).env -}}
{{- with .ANCHOR_CHAIN_ID -}}{{- $ids = append $ids (toString .) -}}{{- end -}}
{{- end -}}
{{- range (.Values.anchorChains | default list) -}}
{{- $ids = append $ids (toString .chainId) -}}
{{- end -}}
{{- join "," $ids -}}
{{- end -}}

{{/*
ANCHOR_RPC_URLS of the anchor verifier (discovery-service): "chainId=url,...", each chain's RPC URL taken from where
its anchor-service takes it. A plain URL (services.anchor-service.env.ANCHOR_RPC_URL, anchorChains[].rpcUrl) is
written as is; a URL in a Secret (services.anchor-service.secretEnv.ANCHOR_RPC_URL, anchorChains[].rpcSecret) is read
into ANCHOR_RPC_URL_<chainId> from that Secret and referenced as $(ANCHOR_RPC_URL_<chainId>), which Kubernetes
expands in the pod: the URL never lands in a ConfigMap or in the manifest. A chain without an RPC URL is left out;
no URL at all renders nothing. Returns env entries (YAML list items).
*/}}
{{- define "agentpay.anchorRpcUrlsEnv" -}}
{{- $pairs := list -}}
{{- $refs := list -}}
{{- $anchor := index .Values.services "anchor-service" | default dict -}}
{{- $primaryId := toString (($anchor.env | default dict).ANCHOR_CHAIN_ID | default "") -}}
{{- $sources := list -}}
{{- if $primaryId -}}
{{- $sources = append $sources (dict "id" $primaryId "secret" (($anchor.secretEnv | default dict).ANCHOR_RPC_URL) "url" (($anchor.env | default dict).ANCHOR_RPC_URL)) -}}
{{- end -}}
{{- range (.Values.anchorChains | default list) -}}
{{- $sources = append $sources (dict "id" (toString .chainId) "secret" .rpcSecret "url" .rpcUrl) -}}
{{- end -}}
{{- range $sources -}}
{{- if .secret -}}
{{- $refs = append $refs (dict "name" (printf "ANCHOR_RPC_URL_%s" .id) "secret" .secret.secret "key" .secret.key) -}}
{{- $pairs = append $pairs (printf "%s=$(ANCHOR_RPC_URL_%s)" .id .id) -}}
{{- else if .url -}}
{{- $pairs = append $pairs (printf "%s=%s" .id (replace "$" "$$" (toString .url))) -}}
{{- end -}}
{{- end -}}
{{- range $refs }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
{{- end }}
{{- if $pairs }}
- name: ANCHOR_RPC_URLS
  value: {{ join "," $pairs | quote }}
{{- end }}
{{- end -}}
