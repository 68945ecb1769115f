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
        )
    ]
}
