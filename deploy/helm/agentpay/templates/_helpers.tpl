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

{{/* Services that must never run more than one pod: single anchor signer (nonce) and single chain watcher (checkpoints). */}}
{{/* One service's effective settings: the service block merged over .Values.defaults, validated. Returns YAML. */}}
{{- define "agentpay.serviceConfig" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $svc := deepCopy .svc -}}
{{- $cfg := mergeOverwrite (deepCopy $root.Values.defaults) $svc -}}
{{- if hasKey $svc "singleton" -}}
{{- fail (printf "services.%s.singleton is gone: every service runs several instances (anchor-service and settlement-watcher fence their work with database leases); remove it" $name) -}}
{{- end -}}
{{- if and (not $cfg.autoscaling.enabled) (lt (int $cfg.replicas) 2) -}}
{{- fail (printf "services.%s.replicas must be at least 2 (no single point of failure), got %v" $name $cfg.replicas) -}}
{{- end -}}
{{- if not $cfg.database -}}
{{- fail (printf "services.%s.database is required" $name) -}}
{{- end -}}
{{- range $k, $v := ($cfg.env | default dict) -}}
{{- if eq (toString $v) "" -}}{{- continue -}}{{- end -}}
{{- if regexMatch "(PASSWORD|SECRET|TOKEN|PRIVATE|_KEY$|AUTH|JAAS)" $k -}}
{{- fail (printf "services.%s.env.%s looks like a secret: move it to secretEnv (a reference to an existing Secret)" $name $k) -}}
{{- end -}}
{{- if hasKey ($cfg.secretEnv | default dict) $k -}}
{{- fail (printf "services.%s: %s is both in env and secretEnv" $name $k) -}}
{{- end -}}
{{- end -}}
{{- range $k, $v := ($root.Values.global.env | default dict) -}}
{{- if eq (toString $v) "" -}}{{- continue -}}{{- end -}}
{{- if regexMatch "(PASSWORD|SECRET|TOKEN|PRIVATE|_KEY$|AUTH|JAAS)" $k -}}
{{- fail (printf "global.env.%s looks like a secret: use a service's secretEnv" $k) -}}
{{- end -}}
{{- end -}}
{{- range $k, $ref := ($cfg.secretEnv | default dict) -}}
{{- if or (not (kindIs "map" $ref)) (not $ref.secret) (not $ref.key) -}}
{{- fail (printf "services.%s.secretEnv.%s must be {secret: <existing Secret>, key: <key>}, never a literal value" $name $k) -}}
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
{{- define "agentpay.dbSecret" -}}
{{- printf "%s%s-db" .root.Values.postgresql.credentialsSecretPrefix .database -}}
{{- end -}}
