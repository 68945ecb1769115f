/// Every migration, in order. Append only: a released migration is never edited.
enum SchemaMigrations {
    static let all: [Migration] = [
        Migration(
            version: 1, name: "tenants_cards_attempts_tokens_idempotency",
            statements: [
                """
                CREATE TABLE tenants (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    api_key_hash TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE cards (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    customer_ref TEXT NOT NULL,
                    account_ref TEXT,
                    pan_vault_record TEXT NOT NULL,
                    last4 TEXT NOT NULL,
                    network TEXT NOT NULL,
                    expiry_month INTEGER NOT NULL,
                    expiry_year INTEGER NOT NULL,
                    cardholder_name TEXT NOT NULL,
                    product_title TEXT,
                    card_art_url TEXT,
                    primary_account_identifier TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX cards_by_customer ON cards (tenant_id, customer_ref, created_at, id)",
                """
                CREATE TABLE provisioning_attempts (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    card_id TEXT NOT NULL REFERENCES cards(id),
                    wallet TEXT NOT NULL,
                    device_type TEXT,
                    encryption_scheme TEXT,
                    outcome TEXT NOT NULL,
                    error_code TEXT,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX attempts_by_card ON provisioning_attempts (tenant_id, card_id, created_at, id)",
                """
                CREATE TABLE mobile_sessions (
                    token_hash TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    customer_ref TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE provision_tokens (
                    token_hash TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    card_id TEXT NOT NULL REFERENCES cards(id),
                    wallet TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE idempotency_keys (
                    scope TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    state TEXT NOT NULL,
                    response_status INTEGER,
                    response_body TEXT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (scope, idempotency_key)
                )
                """,
                "CREATE INDEX idempotency_by_age ON idempotency_keys (created_at)",
            ]
        ),
        Migration(
            version: 2, name: "webhook_outbox",
            statements: [
                """
                CREATE TABLE webhook_endpoints (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    url TEXT NOT NULL,
                    events TEXT NOT NULL,
                    secret_vault_record TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX webhook_endpoints_by_tenant ON webhook_endpoints (tenant_id, created_at, id)",
                """
                CREATE TABLE webhook_events (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    type TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE webhook_deliveries (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    event_id TEXT NOT NULL REFERENCES webhook_events(id),
                    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
                    state TEXT NOT NULL,
                    attempt_count INTEGER NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    last_response_status INTEGER,
                    last_error TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at)",
                "CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (tenant_id, endpoint_id, created_at, id)",
                """
                CREATE TABLE webhook_attempts (
                    id TEXT PRIMARY KEY,
                    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
                    attempted_at BIGINT NOT NULL,
                    response_status INTEGER,
                    error TEXT,
                    duration_ms INTEGER NOT NULL
                )
                """,
                "CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, attempted_at)",
            ]
        ),
        Migration(
            version: 3, name: "tokens_and_network_credentials",
            statements: [
                "ALTER TABLE cards ADD COLUMN pan_fingerprint TEXT",
                "CREATE INDEX cards_by_fingerprint ON cards (tenant_id, pan_fingerprint)",
                """
                CREATE TABLE network_credentials (
                    key_hash TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE tokens (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    card_id TEXT NOT NULL REFERENCES cards(id),
                    wallet TEXT NOT NULL,
                    device_type TEXT,
                    network_token_ref TEXT NOT NULL,
                    device_account_identifier TEXT,
                    token_last4 TEXT,
                    state TEXT NOT NULL,
                    network_state TEXT,
                    decision TEXT NOT NULL,
                    decision_reasons TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX tokens_by_network_ref ON tokens (tenant_id, network_token_ref)",
                "CREATE INDEX tokens_by_card ON tokens (tenant_id, card_id, created_at, id)",
                """
                CREATE TABLE token_events (
                    id TEXT PRIMARY KEY,
                    token_id TEXT NOT NULL REFERENCES tokens(id),
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    type TEXT NOT NULL,
                    from_state TEXT,
                    to_state TEXT NOT NULL,
                    actor TEXT NOT NULL,
                    reason_code TEXT,
                    ordinal INTEGER NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX token_events_by_token ON token_events (token_id, ordinal)",
            ]
        ),
        Migration(
            version: 4, name: "tenant_settings",
            statements: [
                """
                CREATE TABLE tenant_settings (
                    tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                    decisioning TEXT,
                    network_url TEXT,
                    network_api_key_vault_record TEXT,
                    updated_at BIGINT NOT NULL
                )
                """
            ]
        ),
        Migration(
            version: 5, name: "idempotency_leases_and_keyed_digests",
            statements: [
                // Rows written before this version hold an unkeyed digest of the request (a PAN
                // oracle) and answers in clear (bearer secrets): they cannot be converted, so
                // they go. A client retrying across the upgrade runs its request again.
                "DELETE FROM idempotency_keys",
                "ALTER TABLE idempotency_keys ADD COLUMN lease_token TEXT",
                "ALTER TABLE idempotency_keys ADD COLUMN lease_expires_at BIGINT",
            ]
        ),
        Migration(
            version: 6, name: "idempotency_effects",
            statements: [
                // kind:id of the effect a claimed request made, written with the effect.
                "ALTER TABLE idempotency_keys ADD COLUMN effect_ref TEXT"
            ]
        ),
        Migration(
            version: 7, name: "api_keys_session_ids_audit_events_rotation",
            statements: [
                // Several keys per tenant, each with a scope; revoked keys stay for the record.
                """
                CREATE TABLE api_keys (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    name TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    key_hash TEXT NOT NULL UNIQUE,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX api_keys_by_tenant ON api_keys (tenant_id, created_at, id)",
                """
                INSERT INTO api_keys (id, tenant_id, name, scope, key_hash, created_at)
                SELECT 'key_' || id, id, 'default', 'full', api_key_hash, created_at FROM tenants
                """,
                // The tenant's column is no longer read; SQLite cannot drop a UNIQUE column, so
                // it keeps a value that is unique and matches no key.
                "UPDATE tenants SET api_key_hash = 'moved-to-api-keys:' || id",
                // Sessions get an id the issuer can revoke them by.
                "ALTER TABLE mobile_sessions ADD COLUMN id TEXT",
                "UPDATE mobile_sessions SET id = 'ms_' || substr(token_hash, 1, 24)",
                "CREATE UNIQUE INDEX mobile_sessions_by_id ON mobile_sessions (id)",
                "CREATE INDEX mobile_sessions_by_customer ON mobile_sessions (tenant_id, customer_ref)",
                """
                CREATE TABLE audit_events (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    actor_type TEXT NOT NULL,
                    actor_id TEXT,
                    action TEXT NOT NULL,
                    target_type TEXT NOT NULL,
                    target_id TEXT NOT NULL,
                    reason TEXT,
                    request_id TEXT,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX audit_events_by_tenant ON audit_events (tenant_id, created_at, id)",
                "CREATE INDEX audit_events_by_target ON audit_events (tenant_id, target_type, target_id, created_at, id)",
                "CREATE INDEX audit_events_by_actor ON audit_events (tenant_id, actor_type, actor_id, created_at, id)",
                // Rotation with an overlap: the previous webhook secret still signs, and the
                // previous network key still authenticates, until these times.
                "ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_vault_record TEXT",
                "ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_expires_at BIGINT",
                "ALTER TABLE network_credentials ADD COLUMN expires_at BIGINT",
            ],
            // The audit log is append-only below the application too: the database refuses to
            // change or delete a row, whatever connects to it.
            engineStatements: [
                .sqlite: [
                    """
                    CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
                    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END
                    """,
                    """
                    CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
                    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END
                    """,
                ],
                .postgres: [
                    """
                    CREATE OR REPLACE FUNCTION provisio_audit_events_append_only() RETURNS trigger AS $$
                    BEGIN RAISE EXCEPTION 'audit_events is append-only'; END
                    $$ LANGUAGE plpgsql
                    """,
                    """
                    CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
                    FOR EACH ROW EXECUTE FUNCTION provisio_audit_events_append_only()
                    """,
                    """
                    CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
                    FOR EACH STATEMENT EXECUTE FUNCTION provisio_audit_events_append_only()
                    """,
                ],
            ]
        ),
        Migration(
            version: 8, name: "operators_console_sessions_search",
            statements: [
                // Support staff of a tenant; emails are stored lowercased and sign in anywhere.
                """
                CREATE TABLE operators (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    email TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    failed_sign_ins INTEGER NOT NULL DEFAULT 0,
                    locked_until BIGINT,
                    disabled_at BIGINT,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX operators_by_tenant ON operators (tenant_id, created_at, id)",
                """
                CREATE TABLE console_sessions (
                    token_hash TEXT PRIMARY KEY,
                    operator_id TEXT NOT NULL REFERENCES operators(id),
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    last_seen_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX console_sessions_by_operator ON console_sessions (operator_id)",
                // What support searches by.
                "CREATE INDEX cards_by_last4 ON cards (tenant_id, last4)",
                "CREATE INDEX tokens_by_device_account ON tokens (tenant_id, device_account_identifier)",
                "CREATE INDEX tokens_by_token_last4 ON tokens (tenant_id, token_last4)",
            ]
        ),
        Migration(
            version: 9, name: "audit_events_hash_chain",
            statements: [
                // Each line carries its place in one chain and the hash of the line before
                // (`AuditChain`). Lines written before this version keep NULLs: they are folded
                // into the first chained line's previous hash instead (the chain's genesis).
                "ALTER TABLE audit_events ADD COLUMN chain_sequence BIGINT",
                "ALTER TABLE audit_events ADD COLUMN previous_hash TEXT",
                "ALTER TABLE audit_events ADD COLUMN chain_hash TEXT",
                // Two writers that skipped the chain's lock cannot both take the same place.
                "CREATE UNIQUE INDEX audit_events_by_chain_sequence ON audit_events (chain_sequence)",
            ],
            // An unchained line after this version (an older server still running) would break
            // the chain for good; refuse it instead.
            engineStatements: [
                .sqlite: [
                    """
                    CREATE TRIGGER audit_events_chained BEFORE INSERT ON audit_events
                    WHEN NEW.chain_sequence IS NULL OR NEW.previous_hash IS NULL OR NEW.chain_hash IS NULL
                    BEGIN SELECT RAISE(ABORT, 'audit_events lines must be chained'); END
                    """
                ],
                .postgres: [
                    """
                    CREATE OR REPLACE FUNCTION provisio_audit_events_chained() RETURNS trigger AS $$
                    BEGIN
                        IF NEW.chain_sequence IS NULL OR NEW.previous_hash IS NULL OR NEW.chain_hash IS NULL THEN
                            RAISE EXCEPTION 'audit_events lines must be chained';
                        END IF;
                        RETURN NEW;
                    END
                    $$ LANGUAGE plpgsql
                    """,
                    """
                    CREATE TRIGGER audit_events_chained BEFORE INSERT ON audit_events
                    FOR EACH ROW EXECUTE FUNCTION provisio_audit_events_chained()
                    """,
                ],
            ]
        ),
        Migration(
            version: 10, name: "server_instances",
            statements: [
                // Each running server's heartbeat: the vault key it seals under and the keys it
                // holds, so `keys retire` refuses a key a live server still uses.
                """
                CREATE TABLE server_instances (
                    instance_id TEXT PRIMARY KEY,
                    host TEXT NOT NULL,
                    active_key_id TEXT NOT NULL,
                    loaded_key_ids TEXT NOT NULL,
                    started_at BIGINT NOT NULL,
                    last_seen_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """
            ]
        ),
        Migration(
            version: 11, name: "operator_emails_unique_per_tenant",
            statements: [],
            // An email was unique across tenants, so creating an operator told one tenant about
            // another's people (`operator_exists`). Now unique within the tenant; sign-in names it.
            engineStatements: [
                // SQLite cannot drop a column's UNIQUE: the table is rebuilt. Console sessions
                // end (they reference the old table; operators sign in again, naming their tenant).
                .sqlite: [
                    "DELETE FROM console_sessions",
                    """
                    CREATE TABLE operators_next (
                        id TEXT PRIMARY KEY,
                        tenant_id TEXT NOT NULL REFERENCES tenants(id),
                        email TEXT NOT NULL,
                        role TEXT NOT NULL,
                        password_hash TEXT NOT NULL,
                        failed_sign_ins INTEGER NOT NULL DEFAULT 0,
                        locked_until BIGINT,
                        disabled_at BIGINT,
                        created_at BIGINT NOT NULL
                    )
                    """,
                    """
                    INSERT INTO operators_next (id, tenant_id, email, role, password_hash, failed_sign_ins, locked_until,
                        disabled_at, created_at)
                    SELECT id, tenant_id, email, role, password_hash, failed_sign_ins, locked_until, disabled_at, created_at
                    FROM operators
                    """,
                    "DROP TABLE operators",
                    "ALTER TABLE operators_next RENAME TO operators",
                    "CREATE INDEX operators_by_tenant ON operators (tenant_id, created_at, id)",
                    "CREATE UNIQUE INDEX operators_by_tenant_email ON operators (tenant_id, email)",
                ],
                .postgres: [
                    "ALTER TABLE operators DROP CONSTRAINT operators_email_key",
                    "CREATE UNIQUE INDEX operators_by_tenant_email ON operators (tenant_id, email)",
                ],
            ]
        ),
        Migration(
            version: 12, name: "tenant_settings_network_dialect",
            // A tenant's network may speak MDES (issue 23): its dialect, and MDES's OAuth consumer
            // key, sealed signing key and that key's public fingerprint. A NULL dialect is the
            // Provisio dialect, so existing rows keep working.
            statements: [
                "ALTER TABLE tenant_settings ADD COLUMN network_dialect TEXT",
                "ALTER TABLE tenant_settings ADD COLUMN network_oauth_consumer_key TEXT",
                "ALTER TABLE tenant_settings ADD COLUMN network_oauth_signing_key_vault_record TEXT",
                "ALTER TABLE tenant_settings ADD COLUMN network_oauth_signing_key_fingerprint TEXT",
            ]
        ),
        Migration(
            version: 13, name: "mdes_issuer_keys",
            // A tenant's RSA keys for MDES's encrypted payloads (issue 23), named by fingerprint as
            // MDES names them: the private half sealed by the vault, the public half kept to be
            // printed again. Several are live during a rotation. A retired key keeps its row, for
            // the record, and loses its sealed private half.
            statements: [
                """
                CREATE TABLE mdes_issuer_keys (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    fingerprint TEXT NOT NULL,
                    key_size INTEGER NOT NULL,
                    public_key_pem TEXT NOT NULL,
                    private_key_vault_record TEXT,
                    created_at BIGINT NOT NULL,
                    retired_at BIGINT,
                    PRIMARY KEY (tenant_id, fingerprint)
                )
                """
            ]
        ),
        Migration(
            version: 14, name: "mdes_exchanges_and_activation_codes",
            // The MDES listener (issue 23). Every request MDES sends is remembered per tenant under
            // a keyed digest of its requestId, with a keyed digest of its body and, once answered,
            // the answer without its responseId: a retry with the same body gets the same answer,
            // another body under the same requestId is refused, on any server of the database.
            // Activation codes are kept only as keyed digests, with their expiry and misses.
            statements: [
                """
                CREATE TABLE mdes_exchanges (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    request_key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    body_digest TEXT NOT NULL,
                    claim_id TEXT NOT NULL,
                    status INTEGER,
                    answer TEXT,
                    claimed_at BIGINT NOT NULL,
                    PRIMARY KEY (tenant_id, request_key)
                )
                """,
                """
                CREATE TABLE mdes_activation_codes (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    token_unique_reference TEXT NOT NULL,
                    code_digest TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    failures INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (tenant_id, token_unique_reference)
                )
                """,
            ]
        ),
        Migration(
            version: 15, name: "tenant_activation_methods",
            // The issuer's own activation methods (`/v1/settings/activation-methods`): the numbers
            // a cardholder calls and the issuer app's identifier. NULL is "not offered", so
            // existing tenants offer none of them until they set one.
            statements: [
                "ALTER TABLE tenant_settings ADD COLUMN activation_customer_service_phone TEXT",
                "ALTER TABLE tenant_settings ADD COLUMN activation_automated_phone TEXT",
                "ALTER TABLE tenant_settings ADD COLUMN activation_app_identifier TEXT",
            ]
        ),
        Migration(
            version: 16, name: "token_expiry",
            // The network token's own expiry (MDES's `tokenData` and redigitization), month and
            // four-digit year; NULL until the network tells it.
            statements: [
                "ALTER TABLE tokens ADD COLUMN token_expiry_month INTEGER",
                "ALTER TABLE tokens ADD COLUMN token_expiry_year INTEGER",
            ]
        ),
        Migration(
            version: 17, name: "tenant_settings_mastercard_encryption_certificate",
            // MDES's token update encrypts a reissued card's details for Mastercard's key: the
            // tenant's copy of Mastercard's encryption certificate (PEM, public). NULL until set;
            // a reissue over MDES is refused until then.
            statements: [
                "ALTER TABLE tenant_settings ADD COLUMN network_mastercard_encryption_certificate TEXT"
            ]
        ),
        Migration(
            version: 18, name: "google_pay_keys",
            // Google's opaque payment card (issue 24). The tenant's issuer OpenPGP keys, named by
            // fingerprint: the secret half sealed by the vault, the public half kept armoured to
            // be shown again. One is in force; a rotation marks the previous one replaced and
            // forgets its secret. Google's public encryption keys, as the tenant set them, in order.
            statements: [
                """
                CREATE TABLE google_pay_signing_keys (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    fingerprint TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    secret_key_vault_record TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT,
                    replaced_at BIGINT,
                    PRIMARY KEY (tenant_id, fingerprint)
                )
                """,
                """
                CREATE TABLE google_pay_encryption_keys (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    position INTEGER NOT NULL,
                    fingerprint TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (tenant_id, position)
                )
                """,
            ]
        ),
        Migration(
            version: 19, name: "card_products",
            // Card products (issue 25): the settings as one JSON document (validated before it is
            // written), the default flag (0 or 1, one per tenant, kept so by the store), the art's
            // digest. Art bytes once per digest, base64 text so both databases hold them alike.
            // A card's product; NULL follows the tenant's default.
            statements: [
                """
                CREATE TABLE card_products (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    is_default INTEGER NOT NULL,
                    settings TEXT NOT NULL,
                    art_sha256 TEXT,
                    art_kind TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX card_products_by_tenant ON card_products (tenant_id, created_at, id)",
                "CREATE INDEX card_products_by_art ON card_products (art_sha256)",
                """
                CREATE TABLE card_art (
                    sha256 TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    byte_count INTEGER NOT NULL,
                    width INTEGER,
                    height INTEGER,
                    data TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (sha256, kind)
                )
                """,
                "ALTER TABLE cards ADD COLUMN product_id TEXT",
                "CREATE INDEX cards_by_product ON cards (tenant_id, product_id)",
            ]
        ),
        Migration(
            version: 20, name: "card_contacts",
            // Issue 25: the cardholder's mobile number and email address, each sealed by the
            // vault (bound to tenant and card) with its masked form, the only one ever shown.
            // NULL: the card holds none (every card made before).
            statements: [
                "ALTER TABLE cards ADD COLUMN cardholder_phone_vault_record TEXT",
                "ALTER TABLE cards ADD COLUMN cardholder_phone_masked TEXT",
                "ALTER TABLE cards ADD COLUMN cardholder_email_vault_record TEXT",
                "ALTER TABLE cards ADD COLUMN cardholder_email_masked TEXT",
            ]
        ),
        Migration(
            version: 21, name: "token_change_deliveries",
            // Issue 25: a card's replacement (a new number) or reissue that a token's network did
            // not take, retried by the worker until it does. The change is named, never held: a
            // retry reads the card (its number from the vault), so no PAN is here.
            statements: [
                """
                CREATE TABLE token_change_deliveries (
                    id TEXT PRIMARY KEY,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id),
                    card_id TEXT NOT NULL REFERENCES cards(id),
                    token_id TEXT NOT NULL REFERENCES tokens(id),
                    kind TEXT NOT NULL,
                    state TEXT NOT NULL,
                    attempt_count INTEGER NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    last_error_code TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX token_change_deliveries_due ON token_change_deliveries (state, next_attempt_at)",
                "CREATE INDEX token_change_deliveries_by_token ON token_change_deliveries (token_id, kind, state)",
            ]
        ),
    ]
}
