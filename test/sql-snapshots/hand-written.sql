DELETE
  FROM idempotency_keys
  WHERE store_id = $1 AND principal_key = $2 AND key = $3 AND lease_id = $4 AND state = 'in_flight';

DELETE
  FROM idempotency_keys
  WHERE created_at < now() - make_interval(secs => $1);

DELETE
  FROM web_sessions
  WHERE sess->>'sellerId' = $1 AND sid <> $2;

INSERT INTO "download_counters" ("store_id", "order_id", "file_id", "count", "last_downloaded_at") VALUES ($1, $2, $3, 1, $4)
  ON CONFLICT ("order_id", "file_id") DO UPDATE SET "count" = "download_counters"."count" + 1, "last_downloaded_at" = EXCLUDED."last_downloaded_at"
  WHERE "download_counters"."count" < $5
  RETURNING "count";

INSERT INTO customer_messages AS m (store_id, channel, kind, ref, order_id, event_id, state, attempts, claimed_until)
  SELECT v.store_id, v.channel, v.kind, v.ref, v.order_id, v.event_id, 'sending', 1, now() + $7 * interval '1 second'
  FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::uuid[]) AS v(store_id, channel, kind, ref, order_id, event_id)
  ON CONFLICT (channel, kind, ref) DO UPDATE SET state = 'sending', attempts = m.attempts + 1, claimed_until = now() + $7 * interval '1 second', updated_at = now()
  WHERE m.state IN ('pending', 'failed') OR (m.state = 'sending' AND m.claimed_until < now())
  RETURNING m.id, m.attempts, m.channel, m.kind, m.ref;

INSERT INTO customers (store_id, email, name, mobile_number, payment_number) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (store_id, email) DO UPDATE SET name = EXCLUDED.name, mobile_number = EXCLUDED.mobile_number, payment_number = COALESCE(EXCLUDED.payment_number, customers.payment_number), updated_at = now()
  RETURNING "created_at", "updated_at", "id", "store_id", "email", "name", "mobile_number", "payment_number";

INSERT INTO idempotency_keys (store_id, principal_key, key, request_hash, state, lease_id, lease_expires_at) VALUES ($1, $2, $3, $4, 'in_flight', $5, now() + make_interval(secs => $7))
  ON CONFLICT (store_id, principal_key, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, state = 'in_flight', response_status = NULL, response_body = NULL, created_at = now(), lease_id = EXCLUDED.lease_id, lease_expires_at = EXCLUDED.lease_expires_at
  WHERE idempotency_keys.created_at < now() - make_interval(secs => $6) OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.request_hash = EXCLUDED.request_hash AND idempotency_keys.lease_expires_at < now())
  RETURNING id;

INSERT INTO secret_fingerprints (name, fingerprint) VALUES ($1, $2)
  ON CONFLICT (name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, recorded_at = now();

INSERT INTO secret_fingerprints (name, fingerprint) VALUES ($1, $2)
  ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
  RETURNING fingerprint;

SELECT "b"."id" AS "id", "b"."order_id" AS "order_id", "b"."product_id" AS "product_id", "b"."product_pid" AS "product_pid", "b"."name" AS "name", "b"."price" AS "price"
  FROM "order_bump_items" b
  WHERE b.order_id = $1
  ORDER BY b.id ASC;

SELECT "c"."created_at" AS "created_at", "c"."updated_at" AS "updated_at", "c"."id" AS "id", "c"."store_id" AS "store_id", "c"."email" AS "email", "c"."name" AS "name", "c"."mobile_number" AS "mobile_number", "c"."payment_number" AS "payment_number"
  FROM "customers" c
  WHERE c.store_id = $1 AND c.id = $2;

SELECT "created_at", "updated_at", "id", "live_store_id", "seller_id", "name", "brand", "currency", "contact_number", "logo_url", "email_customers"
  FROM "stores"
  WHERE "id" = ANY($1);

SELECT "created_at", "updated_at", "id", "store_id", "pid", "name", "type", "price", "description", "sale_page_url", "image_url", "category", "subcategory", "contact_number", "status_2", "review_reason", "license_keys_enabled", "license_activation_limit"
  FROM "products"
  WHERE "id" = ANY($1);

SELECT "d"."id", "d"."code", "d"."type", "d"."value", "d"."status", "d"."product_ids", "d"."uses_limit", "d"."used_count", "d"."single_use", "d"."never_expires", "d"."expires_at"
  FROM "discounts" d
  WHERE d.store_id = $1 AND d.code_key = $2;

SELECT "d"."id", "d"."code", "d"."type", "d"."value", "d"."status", "d"."product_ids", "d"."uses_limit", "d"."used_count", "d"."single_use", "d"."never_expires", "d"."expires_at"
  FROM "discounts" d
  WHERE d.store_id = $1 AND d.code_key = $2 FOR
  UPDATE;

SELECT "f"."id" AS "id", "f"."store_id" AS "store_id", "f"."product_id" AS "product_id", "f"."name" AS "name", "f"."kind" AS "kind", "f"."storage_key" AS "storage_key", "f"."external_url" AS "external_url", "f"."size_bytes" AS "size_bytes", "f"."format" AS "format", "f"."content_type" AS "content_type", "f"."created_at" AS "created_at"
  FROM "product_files" "f"
  WHERE "f"."store_id" = $1 AND "f"."product_id" = ANY($2)
  ORDER BY "f"."product_id", "f"."id";

SELECT "id", "file_id" AS "fileId", "at", "ip_prefix" AS "ipPrefix", "user_agent" AS "userAgent"
  FROM (SELECT *, row_number() OVER (PARTITION BY "file_id"
  ORDER BY "at" DESC, "id" DESC) AS "n"
  FROM "download_events"
  WHERE "store_id" = $1 AND "order_id" = $2) "e"
  WHERE "n" <= $3
  ORDER BY "at" DESC, "id" DESC;

SELECT "o"."created_at" AS "created_at", "o"."updated_at" AS "updated_at", "o"."id" AS "id", "o"."store_id" AS "store_id", "o"."order_number" AS "order_number", "o"."pay_token_hash" AS "pay_token_hash", "o"."product_id" AS "product_id", "o"."plan_id" AS "plan_id", "o"."customer_id" AS "customer_id", "o"."status" AS "status", "o"."currency" AS "currency", "o"."original_amount" AS "original_amount", "o"."discount_amount" AS "discount_amount", "o"."amount" AS "amount", "o"."discount_id" AS "discount_id", "o"."coupon_code" AS "coupon_code", "o"."coupon_single_use" AS "coupon_single_use", "o"."affiliate_id" AS "affiliate_id", "o"."commission_amount" AS "commission_amount", "o"."transaction_id" AS "transaction_id", "o"."payment_method" AS "payment_method", "o"."customer_name" AS "customer_name", "o"."customer_mobile_number" AS "customer_mobile_number", "o"."customer_payment_number" AS "customer_payment_number", "o"."payment_number" AS "payment_number", "o"."return_url" AS "return_url", "o"."cancel_url" AS "cancel_url", "o"."tracking" AS "tracking", "o"."subscription_id" AS "subscription_id", "o"."subscription_period" AS "subscription_period", "o"."approved_at" AS "approved_at", "o"."cancelled_at" AS "cancelled_at", "o"."refunded_at" AS "refunded_at"
  FROM "orders" o
  WHERE o.id = $1 FOR
  UPDATE;

SELECT "o"."created_at" AS "created_at", "o"."updated_at" AS "updated_at", "o"."id" AS "id", "o"."store_id" AS "store_id", "o"."order_number" AS "order_number", "o"."pay_token_hash" AS "pay_token_hash", "o"."product_id" AS "product_id", "o"."plan_id" AS "plan_id", "o"."customer_id" AS "customer_id", "o"."status" AS "status", "o"."currency" AS "currency", "o"."original_amount" AS "original_amount", "o"."discount_amount" AS "discount_amount", "o"."amount" AS "amount", "o"."discount_id" AS "discount_id", "o"."coupon_code" AS "coupon_code", "o"."coupon_single_use" AS "coupon_single_use", "o"."affiliate_id" AS "affiliate_id", "o"."commission_amount" AS "commission_amount", "o"."transaction_id" AS "transaction_id", "o"."payment_method" AS "payment_method", "o"."customer_name" AS "customer_name", "o"."customer_mobile_number" AS "customer_mobile_number", "o"."customer_payment_number" AS "customer_payment_number", "o"."payment_number" AS "payment_number", "o"."return_url" AS "return_url", "o"."cancel_url" AS "cancel_url", "o"."tracking" AS "tracking", "o"."subscription_id" AS "subscription_id", "o"."subscription_period" AS "subscription_period", "o"."approved_at" AS "approved_at", "o"."cancelled_at" AS "cancelled_at", "o"."refunded_at" AS "refunded_at"
  FROM "orders" o
  WHERE o.pay_token_hash = ANY($1);

SELECT "o"."created_at" AS "o_created_at", "o"."updated_at" AS "o_updated_at", "o"."id" AS "o_id", "o"."store_id" AS "o_store_id", "o"."order_number" AS "o_order_number", "o"."pay_token_hash" AS "o_pay_token_hash", "o"."product_id" AS "o_product_id", "o"."plan_id" AS "o_plan_id", "o"."customer_id" AS "o_customer_id", "o"."status" AS "o_status", "o"."currency" AS "o_currency", "o"."original_amount" AS "o_original_amount", "o"."discount_amount" AS "o_discount_amount", "o"."amount" AS "o_amount", "o"."discount_id" AS "o_discount_id", "o"."coupon_code" AS "o_coupon_code", "o"."coupon_single_use" AS "o_coupon_single_use", "o"."affiliate_id" AS "o_affiliate_id", "o"."commission_amount" AS "o_commission_amount", "o"."transaction_id" AS "o_transaction_id", "o"."payment_method" AS "o_payment_method", "o"."customer_name" AS "o_customer_name", "o"."customer_mobile_number" AS "o_customer_mobile_number", "o"."customer_payment_number" AS "o_customer_payment_number", "o"."payment_number" AS "o_payment_number", "o"."return_url" AS "o_return_url", "o"."cancel_url" AS "o_cancel_url", "o"."tracking" AS "o_tracking", "o"."subscription_id" AS "o_subscription_id", "o"."subscription_period" AS "o_subscription_period", "o"."approved_at" AS "o_approved_at", "o"."cancelled_at" AS "o_cancelled_at", "o"."refunded_at" AS "o_refunded_at", "c"."created_at" AS "c_created_at", "c"."updated_at" AS "c_updated_at", "c"."id" AS "c_id", "c"."store_id" AS "c_store_id", "c"."email" AS "c_email", "c"."name" AS "c_name", "c"."mobile_number" AS "c_mobile_number", "c"."payment_number" AS "c_payment_number", "s"."created_at" AS "s_created_at", "s"."updated_at" AS "s_updated_at", "s"."id" AS "s_id", "s"."store_id" AS "s_store_id", "s"."order_id" AS "s_order_id", "s"."plan_id" AS "s_plan_id", "s"."customer_id" AS "s_customer_id", "s"."status" AS "s_status", "s"."start_date" AS "s_start_date", "s"."end_date" AS "s_end_date", "s"."cancelled_at" AS "s_cancelled_at", "s"."cancel_at_period_end" AS "s_cancel_at_period_end", "s"."interval" AS "s_interval", "s"."interval_count" AS "s_interval_count", "s"."periods" AS "s_periods", "s"."renewal_attempts" AS "s_renewal_attempts", (SELECT json_agg(json_build_object('id', b.id, 'order_id', b.order_id, 'product_id', b.product_id, 'product_pid', b.product_pid, 'name', b.name, 'price', b.price::text)
  ORDER BY b.id)
  FROM "order_bump_items" b
  WHERE b.order_id = o.id) AS "bumps", COALESCE((SELECT json_agg(json_build_array("k"."id", "k"."key_sealed", "k"."product_pid", "k"."status", "k"."activation_limit", "k"."activations", "k"."expires_at"::text)
  ORDER BY k.id)
  FROM "license_keys" k
  WHERE k.order_id = o.id), (SELECT json_agg(json_build_array("k"."id", "k"."key_sealed", "k"."product_pid", "k"."status", "k"."activation_limit", "k"."activations", "k"."expires_at"::text)
  ORDER BY k.id)
  FROM "license_keys" k
  WHERE o.subscription_id IS NOT NULL AND k.subscription_id = o.subscription_id)) AS "license_keys", so.order_number AS "portal_order_number", so.transaction_id AS "portal_transaction_id"
  FROM "orders" o
  LEFT JOIN "customers" c ON c.id = o.customer_id
  LEFT JOIN "subscriptions" s ON s.id = o.subscription_id
  LEFT JOIN "orders" so ON so.id = s.order_id
  WHERE o.id = ANY($1);

SELECT "o"."order_number", "o"."amount", "o"."currency", "o"."status", "o"."created_at", "o"."updated_at", "o"."customer_name", "o"."customer_mobile_number", "c"."name", "c"."email", "c"."mobile_number"
  FROM "orders" o
  JOIN "customers" c ON c.id = o.customer_id
  WHERE o.plan_id = $1 AND o.store_id = $2 AND o.status IN ('approved', 'refunded')
  ORDER BY o.created_at DESC, o.id DESC
  LIMIT $3 OFFSET $4;

SELECT "p"."created_at" AS "p_created_at", "p"."updated_at" AS "p_updated_at", "p"."id" AS "p_id", "p"."store_id" AS "p_store_id", "p"."pid" AS "p_pid", "p"."name" AS "p_name", "p"."type" AS "p_type", "p"."price" AS "p_price", "p"."description" AS "p_description", "p"."sale_page_url" AS "p_sale_page_url", "p"."image_url" AS "p_image_url", "p"."category" AS "p_category", "p"."subcategory" AS "p_subcategory", "p"."contact_number" AS "p_contact_number", "p"."status_2" AS "p_status_2", "p"."review_reason" AS "p_review_reason", "p"."license_keys_enabled" AS "p_license_keys_enabled", "p"."license_activation_limit" AS "p_license_activation_limit", "pl"."created_at" AS "pl_created_at", "pl"."updated_at" AS "pl_updated_at", "pl"."id" AS "pl_id", "pl"."store_id" AS "pl_store_id", "pl"."product_id" AS "pl_product_id", "pl"."plan_id" AS "pl_plan_id", "pl"."name" AS "pl_name", "pl"."price" AS "pl_price", "pl"."interval" AS "pl_interval", "pl"."interval_count" AS "pl_interval_count"
  FROM (SELECT 1) one
  LEFT JOIN "products" p ON p.id = $1
  LEFT JOIN "plans" pl ON pl.id = $2;

SELECT "p"."id", "p"."type", "pl"."id", "pl"."product_id"
  FROM (SELECT 1) one
  LEFT JOIN "products" p ON p.store_id = $1 AND p.pid = $2
  LEFT JOIN "plans" pl ON pl.store_id = $1 AND pl.plan_id = $3;

SELECT "w"."created_at" AS "created_at", "w"."updated_at" AS "updated_at", "w"."id" AS "id", "w"."store_id" AS "store_id", "w"."url" AS "url", "w"."events" AS "events", "w"."product_id" AS "product_id", "w"."name" AS "name", "w"."status" AS "status", "w"."secret" AS "secret"
  FROM "webhooks" w
  WHERE w.store_id = $1 AND w.status = 'active' AND $2 = ANY(w.events) AND (w.product_id IS NULL OR w.product_id = $3)
  ORDER BY w.id ASC;

SELECT 1
  FROM "customers" c
  JOIN "orders" o ON o.customer_id = c.id
  WHERE c.store_id = $1 AND c.email = $2 AND o.discount_id = $3 AND o.id <> $4 AND o.status IN ('pending', 'approved')
  LIMIT 1;

SELECT 1
  FROM orders
  WHERE store_id = $1 AND plan_id = $2 AND status IN ('approved', 'refunded')
  LIMIT 1;

SELECT 1
  FROM orders o
  WHERE o.store_id = $1 AND o.product_id = $2 AND o.status = ANY($3) UNION ALL
  SELECT 1
  FROM order_bump_items i
  JOIN orders o ON o.id = i.order_id
  WHERE o.store_id = $1 AND i.product_id = $2 AND o.status = ANY($3)
  LIMIT 1;

SELECT DISTINCT ON (t.webhook_id) t.webhook_id, d.attempted_at, d.state, d.response_code
  FROM webhook_delivery_targets t
  JOIN webhook_deliveries d ON d.id = t.delivery_id
  WHERE t.webhook_id = ANY($1) AND d.state IN ('success', 'failed')
  ORDER BY t.webhook_id, d.attempted_at DESC, d.id DESC;

SELECT b.id, b.product_id, b.price, b.created_at, p.id AS bump_product_id, p.pid AS bump_product_pid, p.name AS bump_product_name
  FROM order_bumps b
  JOIN products p ON p.id = b.bump_product_id AND p.store_id = b.store_id
  WHERE b.store_id = $1 AND b.product_id = $2
  ORDER BY b.id;

SELECT c.id, "o"."id", "o"."order_number", "o"."amount", "o"."currency", "o"."status", "o"."created_at", "o"."updated_at"
  FROM "customers" c
  LEFT JOIN LATERAL (SELECT "o"."id", "o"."order_number", "o"."amount", "o"."currency", "o"."status", "o"."created_at", "o"."updated_at"
  FROM "orders" o
  WHERE o.customer_id = c.id AND o.status = $5
  ORDER BY o.created_at DESC, o.id DESC
  LIMIT $3 OFFSET $4) o ON true
  WHERE c.store_id = $1 AND c.id = $2;

SELECT c.id, "o"."id", "o"."order_number", "o"."amount", "o"."currency", "o"."status", "o"."created_at", "o"."updated_at"
  FROM "customers" c
  LEFT JOIN LATERAL (SELECT "o"."id", "o"."order_number", "o"."amount", "o"."currency", "o"."status", "o"."created_at", "o"."updated_at"
  FROM "orders" o
  WHERE o.customer_id = c.id
  ORDER BY o.created_at DESC, o.id DESC
  LIMIT $3 OFFSET $4) o ON true
  WHERE c.store_id = $1 AND c.id = $2;

SELECT count(*)::int AS total
  FROM "orders" o
  WHERE o.customer_id = $1;

SELECT count(*)::int AS total
  FROM "orders" o
  WHERE o.customer_id = $1 AND o.status = $2;

SELECT count(*)::int AS total
  FROM orders o
  WHERE o.plan_id = $1 AND o.store_id = $2 AND o.status IN ('approved', 'refunded');

SELECT d.id
  FROM webhook_deliveries d
  WHERE d.state IN ('pending', 'sending') AND ((d.state = 'pending' AND d.created_at < now() - make_interval(secs => $1)) OR (d.state = 'sending' AND (d.claimed_by IS NULL OR NOT EXISTS (
  SELECT 1
  FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.database = (SELECT oid
  FROM pg_database
  WHERE datname = current_database()) AND l.classid = 30568::oid AND l.objid = d.claimed_by::oid))))
  ORDER BY d.id
  LIMIT $2;

SELECT fingerprint
  FROM secret_fingerprints
  WHERE name = $1;

SELECT id
  FROM "products"
  WHERE store_id = $1 AND (pid = $2 OR id::text = $2);

SELECT id
  FROM orders
  WHERE store_id = $1
  ORDER BY id;

SELECT id
  FROM plans
  WHERE store_id = $1 AND (plan_id = $2 OR id::text = $2);

SELECT json_build_array("k"."id", "k"."store_id", "k"."seller_id", "k"."scopes", "s"."currency")
  FROM "api_keys" "k"
  JOIN "stores" "s" ON "s"."id" = "k"."store_id"
  WHERE "k"."token_hash" = $1 AND "k"."revoked_at" IS NULL;

SELECT json_build_array("o"."id", "o"."order_number", "o"."amount"::text, "o"."currency", "o"."status", "o"."created_at"::text, "o"."updated_at"::text, "o"."original_amount"::text, "o"."discount_amount"::text, "o"."coupon_code", "o"."discount_id", "o"."tracking", "o"."transaction_id", "o"."payment_method", "o"."payment_number", "o"."customer_name", "o"."customer_mobile_number", "o"."customer_payment_number", "o"."affiliate_id", "o"."commission_amount"::text, "o"."return_url", "o"."cancel_url", "o"."approved_at"::text, "o"."cancelled_at"::text, "o"."refunded_at"::text, o.product_id, o.plan_id, "c"."id", "c"."name", "c"."email", "c"."mobile_number", "c"."payment_number", "s"."id", "s"."status", "s"."start_date"::text, "s"."end_date"::text, "s"."cancelled_at"::text, (SELECT json_agg(json_build_array("b"."product_pid", "b"."name", "b"."price"::text)
  ORDER BY b.id)
  FROM "order_bump_items" b
  WHERE b.order_id = o.id), (SELECT json_agg(json_build_array("pa"."method", "pa"."provider", "pa"."status", "pa"."amount"::text, "pa"."currency", "pa"."transaction_id", "pa"."error_code", "pa"."error_message", "pa"."created_at"::text)
  ORDER BY pa.created_at DESC, pa.id DESC)
  FROM "payment_attempts" pa
  WHERE pa.order_id = o.id), COALESCE((SELECT json_agg(json_build_array("k"."id", "k"."key_sealed", "k"."product_pid", "k"."status", "k"."activation_limit", "k"."activations", "k"."expires_at"::text)
  ORDER BY k.id)
  FROM "license_keys" k
  WHERE k.order_id = o.id), (SELECT json_agg(json_build_array("k"."id", "k"."key_sealed", "k"."product_pid", "k"."status", "k"."activation_limit", "k"."activations", "k"."expires_at"::text)
  ORDER BY k.id)
  FROM "license_keys" k
  WHERE o.subscription_id IS NOT NULL AND k.subscription_id = o.subscription_id)))
  FROM "orders" o
  LEFT JOIN "customers" c ON c.id = o.customer_id
  LEFT JOIN "subscriptions" s ON s.id = o.subscription_id
  WHERE o.store_id = $1 AND (o.id = $2 OR o.order_number = $3);

SELECT json_build_array("o"."id", "o"."order_number", "o"."amount"::text, "o"."currency", "o"."status", "o"."created_at"::text, "o"."updated_at"::text, "o"."original_amount"::text, "o"."discount_amount"::text, "o"."coupon_code", "o"."discount_id", "o"."tracking", "o"."transaction_id", "o"."payment_method", "o"."payment_number", "o"."customer_name", "o"."customer_mobile_number", "o"."customer_payment_number", "o"."affiliate_id", "o"."commission_amount"::text, "o"."return_url", "o"."cancel_url", "o"."approved_at"::text, "o"."cancelled_at"::text, "o"."refunded_at"::text, o.product_id, o.plan_id, "c"."id", "c"."name", "c"."email", "c"."mobile_number", "c"."payment_number", "s"."id", "s"."status", "s"."start_date"::text, "s"."end_date"::text, "s"."cancelled_at"::text, (SELECT json_agg(json_build_array("b"."product_pid", "b"."name", "b"."price"::text)
  ORDER BY b.id)
  FROM "order_bump_items" b
  WHERE b.order_id = o.id), (SELECT json_agg(json_build_array("pa"."method", "pa"."provider", "pa"."status", "pa"."amount"::text, "pa"."currency", "pa"."transaction_id", "pa"."error_code", "pa"."error_message", "pa"."created_at"::text)
  ORDER BY pa.created_at DESC, pa.id DESC)
  FROM "payment_attempts" pa
  WHERE pa.order_id = o.id), COALESCE((SELECT json_agg(json_build_array("k"."id", "k"."key_sealed", "k"."product_pid", "k"."status", "k"."activation_limit", "k"."activations", "k"."expires_at"::text)
  ORDER BY k.id)
  FROM "license_keys" k
  WHERE k.order_id = o.id), (SELECT json_agg(json_build_array("k"."id", "k"."key_sealed", "k"."product_pid", "k"."status", "k"."activation_limit", "k"."activations", "k"."expires_at"::text)
  ORDER BY k.id)
  FROM "license_keys" k
  WHERE o.subscription_id IS NOT NULL AND k.subscription_id = o.subscription_id)))
  FROM "orders" o
  LEFT JOIN "customers" c ON c.id = o.customer_id
  LEFT JOIN "subscriptions" s ON s.id = o.subscription_id
  WHERE o.store_id = $1 AND o.order_number = $2;

SELECT pl.id, pl.plan_id, pl.name, COALESCE(p.pid, '') AS product_pid
  FROM plans pl
  LEFT JOIN products p ON p.id = pl.product_id AND p.store_id = pl.store_id
  WHERE pl.store_id = $1 AND pl.id = $2;

SELECT pl.id, pl.plan_id, pl.name, COALESCE(p.pid, '') AS product_pid
  FROM plans pl
  LEFT JOIN products p ON p.id = pl.product_id AND p.store_id = pl.store_id
  WHERE pl.store_id = $1 AND pl.plan_id = $2;

SELECT r.webhook_id, r.delivery_id
  FROM (
  SELECT t.webhook_id, t.delivery_id, row_number() OVER (PARTITION BY t.webhook_id
  ORDER BY t.delivery_id DESC) AS n
  FROM webhook_delivery_targets t
  WHERE t.webhook_id = ANY($1) ) r
  WHERE r.n <= $2
  ORDER BY r.webhook_id, r.delivery_id DESC;

SELECT s.id
  FROM subscriptions s
  WHERE s.status = $1 AND s.end_date <= $2 AND NOT s.cancel_at_period_end
  ORDER BY s.end_date, s.id
  LIMIT $3;

SELECT s.id
  FROM subscriptions s
  WHERE s.status = $1 AND s.end_date <= $2 AND s.cancel_at_period_end
  ORDER BY s.end_date, s.id
  LIMIT $3;

SELECT s.id
  FROM subscriptions s
  WHERE s.status = $1 AND s.end_date <= $2
  ORDER BY s.end_date, s.id
  LIMIT $3;

SELECT s.id
  FROM subscriptions s
  WHERE s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end AND s.end_date <= $1 AND NOT EXISTS (SELECT 1
  FROM orders o
  WHERE o.subscription_id = s.id AND o.subscription_period = s.periods + 1)
  ORDER BY s.end_date, s.id
  LIMIT $2;

SELECT s.id
  FROM subscriptions s
  WHERE s.status IN ('active', 'past_due') AND s.renewal_attempts < $1 AND EXISTS (SELECT 1
  FROM orders o
  WHERE o.subscription_id = s.id AND o.subscription_period = s.periods + 1 AND o.status = 'pending')
  ORDER BY s.end_date, s.id
  LIMIT $2;

SELECT s.id
  FROM unnest($1::int[]) AS s(id)
  WHERE EXISTS (SELECT 1
  FROM orders o
  WHERE o.store_id = s.id);

UPDATE "license_keys" SET "expires_at" = $2, "updated_at" = now(), "status" = CASE WHEN "status" = 'expired' THEN 'active' ELSE "status" END
  WHERE "subscription_id" = $1;

UPDATE customer_messages m SET state = 'failed', claimed_until = NULL, last_error = v.error, updated_at = now()
  FROM unnest($1::int[], $2::text[]) AS v(id, error)
  WHERE m.id = v.id AND m.state = 'sending';

UPDATE customer_messages m SET state = v.state, claimed_until = NULL, recipient = v.recipient, detail = v.detail, sent_at = CASE WHEN v.state = 'sent' THEN now() ELSE NULL END, updated_at = now()
  FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS v(id, state, recipient, detail)
  WHERE m.id = v.id;

UPDATE discounts SET used_count = used_count + 1
  WHERE id = $1 AND (uses_limit IS NULL OR used_count < uses_limit)
  RETURNING id;

UPDATE idempotency_keys SET state = 'completed', response_status = $5, response_body = $6, lease_id = NULL, lease_expires_at = NULL
  WHERE store_id = $1 AND principal_key = $2 AND key = $3 AND lease_id = $4;

UPDATE idempotency_keys SET lease_expires_at = now() + make_interval(secs => $5)
  WHERE store_id = $1 AND principal_key = $2 AND key = $3 AND lease_id = $4 AND state = 'in_flight';

UPDATE webhook_deliveries d SET state = 'sending', claimed_by = $2
  WHERE d.id = ANY($1::int[]) AND (d.state = 'pending' OR (d.state = 'sending' AND (d.claimed_by IS NULL OR NOT EXISTS (
  SELECT 1
  FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.database = (SELECT oid
  FROM pg_database
  WHERE datname = current_database()) AND l.classid = 30568::oid AND l.objid = d.claimed_by::oid))))
  RETURNING "id", "store_id", "event_kind", "order_id", "url", "payload", "message_id", "redelivery_of", "state", "claimed_by", "request_headers", "attempted_at", "response_code", "response_body", "duration_ms", "error", "created_at", ARRAY(
  SELECT w.secret
  FROM webhook_delivery_targets t
  JOIN webhooks w ON w.id = t.webhook_id
  WHERE t.delivery_id = d.id
  ORDER BY w.id ASC) AS "secrets";

UPDATE webhook_deliveries d SET state = v.state, request_headers = v.request_headers, attempted_at = v.attempted_at, response_code = v.response_code, response_body = v.response_body, duration_ms = v.duration_ms, error = v.error
  FROM unnest($1::int[], $2::text[], $3::jsonb[], $4::timestamptz[], $5::int[], $6::text[], $7::int[], $8::text[]) AS v(id, state, request_headers, attempted_at, response_code, response_body, duration_ms, error)
  WHERE d.id = v.id;

WITH d AS (
  INSERT INTO webhook_deliveries (store_id, event_kind, order_id, url, payload, message_id, redelivery_of, state)
  SELECT v.store_id, v.event_kind, v.order_id, v.url, v.payload, v.message_id, v.redelivery_of, 'pending'
  FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::json[], $6::text[], $7::int[]) WITH ORDINALITY AS v(store_id, event_kind, order_id, url, payload, message_id, redelivery_of, n)
  ORDER BY v.n
  RETURNING "id", "store_id", "event_kind", "order_id", "url", "payload", "message_id", "redelivery_of", "state", "claimed_by", "request_headers", "attempted_at", "response_code", "response_body", "duration_ms", "error", "created_at" ), t AS (
  INSERT INTO webhook_delivery_targets (delivery_id, webhook_id)
  SELECT d.id, w.webhook_id
  FROM unnest($8::text[], $9::int[]) AS w(message_id, webhook_id)
  JOIN d ON d.message_id = w.message_id )
  SELECT "id", "store_id", "event_kind", "order_id", "url", "payload", "message_id", "redelivery_of", "state", "claimed_by", "request_headers", "attempted_at", "response_code", "response_body", "duration_ms", "error", "created_at"
  FROM d;

WITH
  v AS (SELECT *
  FROM unnest($1::int[], $2::int[], $4::varchar[], $5::varchar[], $6::varchar[], $7::varchar[], $8::text[], $9::timestamptz[]) AS v("order_id", "attempt_id", "status", "transaction_id", "gateway_reference", "error_code", "error_message", "at")),
  o AS (SELECT *
  FROM "orders"
  WHERE "id" = ANY($1)
  ORDER BY "id" FOR
  UPDATE),
  a AS (UPDATE "payment_attempts" p SET "status" = v."status", "transaction_id" = v."transaction_id", "gateway_reference" = v."gateway_reference", "redirect_url" = NULL, "error_code" = v."error_code", "error_message" = v."error_message", "finished_at" = v."at", "updated_at" = v."at"
  FROM v
  JOIN o ON o."id" = v."order_id"
  WHERE p."id" = v."attempt_id" AND p."order_id" = v."order_id" AND p."status" = ANY($3)
  RETURNING p.*)
  SELECT "o"."created_at" AS "o_created_at", "o"."updated_at" AS "o_updated_at", "o"."id" AS "o_id", "o"."store_id" AS "o_store_id", "o"."order_number" AS "o_order_number", "o"."pay_token_hash" AS "o_pay_token_hash", "o"."product_id" AS "o_product_id", "o"."plan_id" AS "o_plan_id", "o"."customer_id" AS "o_customer_id", "o"."status" AS "o_status", "o"."currency" AS "o_currency", "o"."original_amount" AS "o_original_amount", "o"."discount_amount" AS "o_discount_amount", "o"."amount" AS "o_amount", "o"."discount_id" AS "o_discount_id", "o"."coupon_code" AS "o_coupon_code", "o"."coupon_single_use" AS "o_coupon_single_use", "o"."affiliate_id" AS "o_affiliate_id", "o"."commission_amount" AS "o_commission_amount", "o"."transaction_id" AS "o_transaction_id", "o"."payment_method" AS "o_payment_method", "o"."customer_name" AS "o_customer_name", "o"."customer_mobile_number" AS "o_customer_mobile_number", "o"."customer_payment_number" AS "o_customer_payment_number", "o"."payment_number" AS "o_payment_number", "o"."return_url" AS "o_return_url", "o"."cancel_url" AS "o_cancel_url", "o"."tracking" AS "o_tracking", "o"."subscription_id" AS "o_subscription_id", "o"."subscription_period" AS "o_subscription_period", "o"."approved_at" AS "o_approved_at", "o"."cancelled_at" AS "o_cancelled_at", "o"."refunded_at" AS "o_refunded_at", EXISTS (SELECT 1
  FROM "order_bump_items" b
  WHERE b."order_id" = o."id") AS "has_bumps", "a"."id" AS "a_id", "a"."reference" AS "a_reference", "a"."order_id" AS "a_order_id", "a"."store_id" AS "a_store_id", "a"."method" AS "a_method", "a"."provider" AS "a_provider", "a"."amount" AS "a_amount", "a"."currency" AS "a_currency", "a"."payment_number" AS "a_payment_number", "a"."status" AS "a_status", "a"."off_session" AS "a_off_session", "a"."transaction_id" AS "a_transaction_id", "a"."gateway_reference" AS "a_gateway_reference", "a"."redirect_url" AS "a_redirect_url", "a"."error_code" AS "a_error_code", "a"."error_message" AS "a_error_message", "a"."refund_started_at" AS "a_refund_started_at", "a"."refund_request_reference" AS "a_refund_request_reference", "a"."refunded_at" AS "a_refunded_at", "a"."refund_reference" AS "a_refund_reference", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."finished_at" AS "a_finished_at"
  FROM o
  LEFT JOIN a ON a."order_id" = o."id";

WITH
  v AS (SELECT *
  FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::boolean[], $7::timestamptz[]) AS v("order_id", "reference", "method", "provider", "payment_number", "off_session", "at")),
  o AS (SELECT *
  FROM "orders"
  WHERE "id" = ANY($1)
  ORDER BY "id" FOR
  UPDATE),
  a AS (INSERT INTO "payment_attempts" ("reference", "order_id", "store_id", "method", "provider", "amount", "currency", "payment_number", "status", "off_session", "created_at", "updated_at")
  SELECT v."reference", o."id", o."store_id", v."method", v."provider", o."amount", o."currency", v."payment_number", 'processing', v."off_session", v."at", v."at"
  FROM v
  JOIN o ON o."id" = v."order_id"
  WHERE o."status" = 'pending' AND NOT EXISTS (SELECT 1
  FROM "order_bump_items" b
  WHERE b."order_id" = o."id")
  ON CONFLICT ("order_id")
  WHERE "status" = 'processing' DO NOTHING
  RETURNING *)
  SELECT v."reference" AS "claim", "o"."created_at" AS "o_created_at", "o"."updated_at" AS "o_updated_at", "o"."id" AS "o_id", "o"."store_id" AS "o_store_id", "o"."order_number" AS "o_order_number", "o"."pay_token_hash" AS "o_pay_token_hash", "o"."product_id" AS "o_product_id", "o"."plan_id" AS "o_plan_id", "o"."customer_id" AS "o_customer_id", "o"."status" AS "o_status", "o"."currency" AS "o_currency", "o"."original_amount" AS "o_original_amount", "o"."discount_amount" AS "o_discount_amount", "o"."amount" AS "o_amount", "o"."discount_id" AS "o_discount_id", "o"."coupon_code" AS "o_coupon_code", "o"."coupon_single_use" AS "o_coupon_single_use", "o"."affiliate_id" AS "o_affiliate_id", "o"."commission_amount" AS "o_commission_amount", "o"."transaction_id" AS "o_transaction_id", "o"."payment_method" AS "o_payment_method", "o"."customer_name" AS "o_customer_name", "o"."customer_mobile_number" AS "o_customer_mobile_number", "o"."customer_payment_number" AS "o_customer_payment_number", "o"."payment_number" AS "o_payment_number", "o"."return_url" AS "o_return_url", "o"."cancel_url" AS "o_cancel_url", "o"."tracking" AS "o_tracking", "o"."subscription_id" AS "o_subscription_id", "o"."subscription_period" AS "o_subscription_period", "o"."approved_at" AS "o_approved_at", "o"."cancelled_at" AS "o_cancelled_at", "o"."refunded_at" AS "o_refunded_at", "a"."id" AS "a_id", "a"."reference" AS "a_reference", "a"."order_id" AS "a_order_id", "a"."store_id" AS "a_store_id", "a"."method" AS "a_method", "a"."provider" AS "a_provider", "a"."amount" AS "a_amount", "a"."currency" AS "a_currency", "a"."payment_number" AS "a_payment_number", "a"."status" AS "a_status", "a"."off_session" AS "a_off_session", "a"."transaction_id" AS "a_transaction_id", "a"."gateway_reference" AS "a_gateway_reference", "a"."redirect_url" AS "a_redirect_url", "a"."error_code" AS "a_error_code", "a"."error_message" AS "a_error_message", "a"."refund_started_at" AS "a_refund_started_at", "a"."refund_request_reference" AS "a_refund_request_reference", "a"."refunded_at" AS "a_refunded_at", "a"."refund_reference" AS "a_refund_reference", "a"."created_at" AS "a_created_at", "a"."updated_at" AS "a_updated_at", "a"."finished_at" AS "a_finished_at"
  FROM v
  JOIN o ON o."id" = v."order_id"
  LEFT JOIN a ON a."reference" = v."reference";
